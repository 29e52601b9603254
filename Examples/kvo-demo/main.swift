import Foundation
import KeyValueObserving
import KeyValueObservingCombine
import Observation

/// `swift run kvo-demo`: a narrated tour of what KeyValueObserving does.

func section(_ title: String) {
  print("\n== \(title)")
}

func say(_ line: String) {
  print("   " + line)
}

print("""
  kvo-demo: a narrated tour of KeyValueObserving. Each section below is one
  block of Examples/kvo-demo/main.swift; the models are in
  Examples/kvo-demo/Models.swift. Read the code beside what it prints.
  """)

/// `value` as a person reads it: a string quoted, `nil` for nil, an
/// optional's wrapped value without `Optional(…)`.
func readable(_ value: Any?) -> String {
  guard let value else { return "nil" }
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .optional {
    return readable(mirror.children.first?.value)
  }
  if let string = value as? String { return "\"\(string)\"" }
  return "\(value)"
}

section("An observable model")
say("@KeyValueObservable class Person { var name: String; var age: Int; var nickname: String? }")
let ada = Person(name: "Ada", age: 36)
say("Nobody observes ada yet: a write costs one atomic load more than a plain store.")
ada.age = 37

// Each section keeps its observations in `tokens` and ends them before the
// next begins, so that what a section prints is its own.
var tokens: [KeyValueObservation] = []

/// Ends a section: its tokens go, and the objects it observed must have no
/// observation left (the demo stops if one does), so that nothing it
/// started prints in a later section.
@MainActor
func endSection(_ objects: any KeyValueObservable...) {
  tokens.removeAll()
  for object in objects {
    precondition(object.observationInfo.isEmpty, "a section left \(object) observed: \(object.observationInfo)")
  }
}

section("Old and new values")
tokens.append(
  ada.observe(\.name, options: [.old, .new]) { person, change in
    say("name: \(change.oldValue!) → \(change.newValue!)")
  }
)
ada.name = "Ada Lovelace"
say("Every assignment notifies, also of an equal value:")
ada.name = "Ada Lovelace"
endSection(ada)

section(".initial and .prior")
tokens.append(
  ada.observe(\.age, options: [.initial, .prior, .old, .new]) { person, change in
    if change.isPrior {
      say("age is about to change from \(change.oldValue!) (the object still says \(person.age))")
    } else if change.oldValue == nil {
      say("age is \(change.newValue!) right now (.initial, delivered before observe returned)")
    } else {
      say("age changed: \(change.oldValue!) → \(change.newValue!)")
    }
  }
)
ada.age += 1
say("The property's own didSet clamps a negative age; observers see one change, with the clamped value:")
ada.age = -5
endSection(ada)

section("Optional values keep 'not asked for' and 'was nil' apart")
tokens.append(
  ada.observe(\.nickname, options: [.old, .new]) { _, change in
    // `oldValue` is `String??`: `nil` when it was not asked for, `.some(nil)`
    // when it was and the property held nil.
    let old = change.oldValue.map { "\(readable($0)) (asked for; the property held it)" } ?? "not asked for"
    let new = change.newValue.map(readable) ?? "not asked for"
    say("nickname: old \(old), new \(new)")
  }
)
ada.nickname = "Countess"
endSection(ada)

section("Computed properties: dependencies found by running the getter")
say("var greeting: String { \"\\(nickname ?? name), \\(age)\" }  — no declaration needed")
tokens.append(
  ada.observe(\.greeting, options: [.old, .new]) { _, change in
    say("greeting: \(change.oldValue!) → \(change.newValue!)")
  }
)
ada.age = 40
ada.nickname = nil
say("The getter reads nickname, and name only when nickname is nil; the dependencies follow the branch:")
ada.name = "Augusta Ada"
endSection(ada)

section("Chains: \\.address?.city, re-wired when a link is replaced")
tokens.append(
  ada.observe(\.address?.city, options: [.old, .new]) { _, change in
    say("address?.city: \(change.oldValue! ?? "nil") → \(change.newValue! ?? "nil")")
  }
)
let london = Address(city: "London")
ada.address = london
ada.address?.city = "Marylebone"
ada.address = Address(city: "Ockham")
say("The old address is detached and no longer observed:")
london.city = "silence"
say("(nothing printed; observers on the old address: \(london.observationInfo.count))")
ada.address = nil
endSection(ada, london)

section("A closure observed through whatever it reads")
say("withKeyValueObservation { … } runs now, and again after each change of what it read:")
let office = Address(city: "London")
tokens.append(
  withKeyValueObservation {
    say("\(ada.nickname ?? ada.name) works in \(office.city)")
  }
)
office.city = "Cambridge"
ada.nickname = "Countess"
say("A branch no longer taken is no longer observed: name is not read while nickname is set.")
ada.name = "Augusta"
say("(nothing printed)")
ada.nickname = nil
endSection(ada, office)

section("Bindings: one way to anything, both ways without echo")
/// A view the library knows nothing of, as a `UILabel` is.
final class Caption {
  var text: String?
}
let caption = Caption()
tokens.append(ada.bind(\.greeting, to: \.text, on: caption))
say("caption.text: \(caption.text!)")
ada.age = 41
say("caption.text: \(caption.text!)")
let other = Person(name: "Grace", age: 45)
tokens.append(ada.bind(\.nickname, twoWayTo: \.nickname, on: other, initialValueFrom: .target))
other.nickname = "Amazing Grace"
say("ada.nickname: \(ada.nickname ?? "nil"); caption.text: \(caption.text!)")
ada.nickname = nil
say("other.nickname: \(other.nickname ?? "nil")")
endSection(ada, other)

section("Manual notification: several assignments, one change")
tokens.append(
  ada.observe(\.age, options: [.old, .new]) { _, change in
    say("age: \(change.oldValue!) → \(change.newValue!)")
  }
)
let newAge = ada.withChange(for: \.age) {
  ada.age += 1
  ada.age += 1
  return ada.age
}
say("withChange returned \(newAge); observers heard one change (usable from async code, unlike a will/did pair)")
endSection(ada)

section("Codable models: encoded under the properties' own names")
let note = Note(title: "Shopping", lines: 2)
let encoder = JSONEncoder()
encoder.outputFormatting = .sortedKeys
let json = try! encoder.encode(note)
say("encoded: \(String(decoding: json, as: UTF8.self))")
let decoded = try! JSONDecoder().decode(Note.self, from: json)
tokens.append(
  decoded.observe(\.lines, options: [.old, .new]) { _, change in
    say("decoded note: lines \(change.oldValue!) → \(change.newValue!)")
  }
)
decoded.lines += 1
endSection(decoded)

section("Key-value coding: string keys, checked, never a crash")
do {
  try ada.setValue(41, forKey: "age")
  say("value(forKey: \"greeting\") = \(try ada.value(forKey: "greeting") ?? "nil")")
  try ada.setValue("forty", forKey: "age")
} catch {
  say("setValue(\"forty\", forKey: \"age\") threw: \(error)")
}

section("Classic observers: string key paths and change dictionaries, misuse made harmless")
say("A second Person, babbage (Charles, 40), and an observer object that prints change dictionaries:")
let babbage = Person(name: "Charles", age: 40)
let printer = ChangePrinter(name: "printer")
do {
  try babbage.addObserver(printer, forKeyPath: "age", options: [.old, .new])
  try babbage.addObserver(printer, forKeyPath: "address.city", options: .new)
  babbage.age = 41
  babbage.address = Address(city: "London")
  babbage.address?.city = "Marylebone"
  try babbage.addObserver(printer, forKeyPath: "adress.city")
} catch {
  say("addObserver(forKeyPath: \"adress.city\") threw: \(error)")
}
KeyValueObservingDiagnostic.withHandler({ say("diagnostic: \($0.message)") }) {
  say("removeObserver: \(babbage.removeObserver(printer, forKeyPath: "age"))")
  say("removeObserver again: \(babbage.removeObserver(printer, forKeyPath: "age")) (Objective-C KVO would raise)")
  var shortLivedObserver: ChangePrinter? = ChangePrinter(name: "short-lived")
  try? babbage.addObserver(shortLivedObserver!, forKeyPath: "name")
  shortLivedObserver = nil
  babbage.name = "Charles Babbage"
  say("(the freed observer was not messaged: Objective-C KVO would have crashed)")
}
babbage.removeObserver(printer, forKeyPath: "address.city")
endSection(babbage)

section("To-many: an array proxy notifies insertions, removals and replacements")
tokens.append(
  babbage.observe(\.skills, options: [.old, .new]) { _, change in
    let indexes = change.indexes.map { $0.ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") }
    let old = change.oldValue.map { "\($0)" } ?? "none"
    let new = change.newValue.map { "\($0)" } ?? "none"
    say("skills: \(change.kind)\(indexes.map { " at \($0)" } ?? ""), old \(old), new \(new)")
  }
)
let skills = babbage.mutableArrayValue(for: \.skills)
skills.append(contentsOf: ["calculus", "engines", "ciphers"])
skills[1] = "difference engines"
skills.removeAll { $0 == "calculus" }
say("Assigning the whole array is still a setting:")
babbage.skills = ["analytical engines"]
endSection(babbage)

section("KVOController: observations owned by an observer")
say("A third Person, lovelace (Ada, 36), and a view model that observes her through its controller:")
let lovelace = Person(name: "Ada", age: 36)
var viewModel: ProfileViewModel? = ProfileViewModel(person: lovelace)
lovelace.age = 37
lovelace.name = "Ada King"
say("What the view model observes:")
for line in viewModel!.observing.split(separator: "\n") {
  say("  " + line)
}
say("The view model goes away, and its controller with it:")
viewModel = nil
lovelace.age = 38
say("(nothing printed; observers left on the person: \(lovelace.observationInfo.count))")

section("Subclasses add keys")
say("Employee, a subclass of Person marked too, adds title; grace is one:")
let grace = Employee(name: "Grace", age: 45)
tokens.append(
  grace.observe(\.title, options: .new) { _, change in say("title → \(change.newValue!)") }
)
tokens.append(
  grace.observe(\.name, options: .new) { _, change in say("name (inherited key) → \(change.newValue!)") }
)
grace.title = "Rear Admiral"
grace.name = "Grace Hopper"
endSection(grace)

section("One model for KVO and Swift Observation")
say("@MainActor @KeyValueObservable final class Sheet: Observable { var title; var rows: [Double]; var total { … } }")
let sheet = Sheet()
withObservationTracking {
  _ = sheet.total
} onChange: {
  say("Observation: the sheet will change (its onChange fires once)")
}
tokens.append(
  sheet.observe(\.total, options: [.old, .new]) { _, change in
    say("KVO: total \(change.oldValue!) → \(change.newValue!)")
  }
)
sheet.rows.append(2.5)
sheet.rows.append(1.5)
/// Reads `Observations { sheet.title }`: the title now, then the next one.
@MainActor
func followTitle(of sheet: Sheet) async {
  var titles = Observations { sheet.title }.makeAsyncIterator()
  say("Observations { sheet.title } starts with \"\(await titles.next() ?? "")\"")
  sheet.title = "Budget"
  say("and then yields \"\(await titles.next() ?? "")\"")
}
await followTitle(of: sheet)
endSection(sheet)

section("Combine: publisher(for:), as Apple's KVO publisher")
say("Another Person, author (Ada, 36), and the sheet from the section before.")
say("author.publisher(for: \\.age).map { decade }.removeDuplicates().sink { … }  (OpenCombine on Linux)")
let author = Person(name: "Ada", age: 36)
let decades = author.publisher(for: \.age)
  .map { $0 / 10 * 10 }
  .removeDuplicates()
  .sink { say("Combine: Ada is in her \($0)s") }
author.age = 38
say("age = 38: the same decade, so removeDuplicates() keeps quiet")
author.age = 40
var titles: [String] = []
let sheetTitle = sheet.publisher(for: \.title, options: [.prior, .new]).sink { titles.append($0) }
sheet.title = "Forecast"
say("With .prior, one change of the sheet's title sends \(titles): the old value, then the new")
for entry in author.observationInfo {
  say("Listed in observationInfo: \(entry.description)")
}
decades.cancel()
sheetTitle.cancel()
say("cancel() removed it at once: \(author.observationInfo.count) left")
endSection(author, sheet)

section("Who observes what")
say("ada observed by name, through her greeting and her address's city, and by a classic observer:")
ada.address = Address(city: "London")
tokens.append(ada.observe(\.name, options: .new) { _, _ in })
tokens.append(ada.observe(\.greeting) { _, _ in })
tokens.append(ada.observe(\.address?.city, options: [.old, .new]) { _, _ in })
try? ada.addObserver(printer, forKeyPath: "age")
say("observationInfo, one line each (key path, options, observer, and what a derived key depends on):")
for entry in ada.observationInfo {
  let options = entry.options.isEmpty ? "no options" : "options \(entry.options)"
  let dependencies = entry.dependencies.isEmpty ? "" : ", depending on " + entry.dependencies.joined(separator: ", ")
  say("\(entry.keyPath) (\(options)) → \(entry.observer)\(dependencies)")
}
let graph = KeyValueObservationGraph(from: [ada])
say("The same registrations as a graph, from ada outwards (print(graph)); each edge reads observer → observed: key path, options, kind, where it was made:")
for line in graph.description.split(separator: "\n") {
  say("  " + line)
}
// The drawable forms go to files: Mermaid (which GitHub draws in a
// ```mermaid block) and Graphviz's DOT (`dot -Tsvg`).
let directory = FileManager.default.temporaryDirectory
for (name, text) in [("kvo-demo-graph.mmd", graph.mermaid), ("kvo-demo-graph.dot", graph.dot)] {
  let file = directory.appendingPathComponent(name)
  do {
    try text.write(to: file, atomically: true, encoding: .utf8)
    say("Written to \(file.path): graph.\(name.hasSuffix("dot") ? "dot" : "mermaid")")
  } catch {
    say("Could not write \(file.path): \(error)")
  }
}
_ = ada.removeObserver(printer, forKeyPath: "age")
endSection(ada)

section("Tokens going away")
tokens.append(ada.observe(\.name) { _, _ in })
tokens.append(ada.observe(\.age) { _, _ in })
say("Two tokens in an array hold two observations of ada.")
let counter = ada.observe(\.age) { _, _ in say("this line never prints") }
counter.invalidate()
counter.invalidate()
say("invalidate() twice: harmless; the registration is gone: \(ada.observationInfo.count) left on ada")
tokens.removeAll()
say("Releasing the array's tokens ends the rest: \(ada.observationInfo.count) left on ada")

var shortLived: Person? = Person(name: "Temp", age: 1)
let orphan = shortLived!.observe(\.age) { _, _ in }
shortLived = nil
say("The observed object was freed while observed: no crash, token active = \(orphan.isActive)")
orphan.invalidate()
say("Invalidating that token later is harmless too.")
print()
