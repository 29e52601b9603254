import Foundation
import KeyValueObserving
import Observation
import Testing

/// The README's example, checked: what it says it prints is what the
/// observers receive.
@KeyValueObservable
final class ReadmeIntroPerson {
  var name = ""
  var age = 0
  var summary: String { "\(name), \(age)" }
}

@Suite("README: the first example")
struct ReadmeIntroTests {
  @Test("the initial value, a change, and a computed key's change, as the README prints them")
  func firstExample() {
    let person = ReadmeIntroPerson()
    let lines = Recorder<String>()
    let token = person.observe(\.age, options: [.initial, .old, .new]) { person, change in
      lines.append("\(change.oldValue as Any) → \(change.newValue as Any)")
    }
    #expect(lines.elements == ["nil → Optional(0)"])
    person.age = 36
    #expect(lines.elements.last == "Optional(0) → Optional(36)")
    let summary = person.observe(\.summary, options: .new) { _, change in
      lines.append(change.newValue!)
    }
    person.name = "Ada"
    #expect(lines.elements.last == "Ada, 36")
    token.invalidate()
    person.age = 37
    #expect(lines.elements.last == "Ada, 37", "only the summary's observer is left")
    #expect(lines.count == 4)
    withExtendedLifetime(summary) {}
  }
}

/// The getting-started article's first example (GettingStarted.md),
/// checked: what it says it prints is what the observer receives.
@KeyValueObservable
final class ReadmePerson {
  var name = ""
  var age = 0 {
    didSet { if age < 0 { age = 0 } }
  }
  var nickname: String?
  @KeyValueIgnored var cache = 0
  let id = 1
}

@Suite("Getting started, async sequences and the controller, as the articles show them")
struct ReadmeExampleTests {
  @Test("initial value, a change, and a clamped change reported once")
  func quickStart() {
    let person = ReadmePerson()
    let lines = Recorder<String>()
    let token = person.observe(\.age, options: [.initial, .old, .new]) { person, change in
      lines.append("\(change.oldValue as Any) → \(change.newValue as Any)")
    }
    #expect(lines.elements == ["nil → Optional(0)"])
    person.age = 36
    #expect(lines.elements.last == "Optional(0) → Optional(36)")
    person.age = -1
    #expect(lines.elements.last == "Optional(36) → Optional(0)")
    #expect(lines.count == 3)
    token.invalidate()
    person.age = 5
    #expect(lines.count == 3)
  }

  @Test("a computed property and a chain, as the article shows them")
  func computedAndChain() {
    let customer = ReadmeCustomer()
    let lines = Recorder<String>()
    let names = customer.observe(\.fullName, options: [.old, .new]) { _, change in
      lines.append("\(change.oldValue!) → \(change.newValue!)")
    }
    customer.first = "Augusta"
    #expect(lines.elements == ["Ada Lovelace → Augusta Lovelace"])

    let cities = customer.observe(\.address?.city, options: .new) { _, change in
      lines.append(change.newValue! ?? "no address")
    }
    customer.address = ReadmeAddress()
    customer.address?.city = "Oslo"
    customer.address = nil
    #expect(lines.elements.dropFirst() == ["London", "Oslo", "no address"])
    _ = (names, cities)
  }

  @Test("async sequences and queue delivery, as the article shows them")
  func asyncSequences() async {
    let customer = ReadmeCustomer()
    let names = customer.changes(for: \.fullName, options: [.old, .new])
    var cities = customer.values(for: \.address?.city).makeAsyncIterator()
    #expect(await cities.next() == .some(nil), "no address yet")
    customer.first = "Augusta"
    for await change in names {
      #expect(change.oldValue == "Ada Lovelace" && change.newValue == "Augusta Lovelace")
      break
    }
    customer.address = ReadmeAddress()
    #expect(await cities.next() == "London")
  }

  @Test("the async-sequence loops compile as the article writes them, in nonisolated synchronous code")
  func asyncSequencesInTasks() async {
    let printed = Recorder<String>()
    var customer: ReadmeCustomer? = ReadmeCustomer()
    let tasks = readmeSequenceTasks(customer!, printed)
    customer?.first = "Augusta"
    customer?.address = ReadmeAddress()
    // Freeing the object ends both loops.
    customer = nil
    for task in tasks { await task.value }
    let lines = printed.elements
    #expect(lines.filter { $0.contains("→") } == ["Ada Lovelace → Augusta Lovelace"])
    #expect(lines.last { !$0.contains("→") } == "London", "the latest city is seen")
  }

  @Test("a controller owned by a view model, as the article shows it")
  func controller() {
    let customer = ReadmeCustomer()
    let printed = Recorder<String>()
    var viewModel: ReadmeViewModel? = ReadmeViewModel(customer: customer, printed: printed)
    #expect(viewModel?.headline == "Ada Lovelace", ".initial set the headline")
    customer.last = "King"
    #expect(viewModel?.headline == "Ada King")
    #expect(printed.elements == ["last → King"])
    viewModel = nil
    customer.first = "Augusta"
    #expect(printed.count == 1)
    #expect(customer.observationInfo.isEmpty, "every observation of the view model ended with it")
  }
}

/// The controller article's view model, printing into a recorder.
final class ReadmeViewModel {
  private(set) var headline = ""
  private lazy var kvo = KVOController(observer: self)

  init(customer: ReadmeCustomer, printed: Recorder<String>) {
    kvo.observe(customer, \.fullName, options: [.initial, .new]) { viewModel, customer, change in
      viewModel.headline = change.newValue ?? ""
    }
    try? kvo.observe(customer, keyPaths: ["first", "last"], options: .new) { viewModel, _, change in
      printed.append("\(change[.keyPath]!) → \(change[.new]!)")
    }
  }
}

@KeyValueObservable
final class ReadmeAddress {
  var city = "London"
}

@KeyValueObservable
final class ReadmeCustomer {
  var first = "Ada"
  var last = "Lovelace"
  var address: ReadmeAddress?
  var fullName: String { "\(first) \(last)" }
}

@KeyValueObservable
final class ReadmeDocument: Codable {
  var title = ""
  var pages = 0
}

@KeyValueObservable
final class ReadmeEditor {
  weak var document: ReadmeDocument?
  private(set) var owner = "me"
  private var draft = ""
}

/// The controller article's audit log: a controller action named as a method.
final class ReadmeAuditLog {
  let lines = Recorder<String>()
  private lazy var kvo = KVOController(observer: self)

  init(customer: ReadmeCustomer) {
    kvo.observe(customer, \.fullName, options: [.old, .new], action: ReadmeAuditLog.nameChanged)
  }

  func nameChanged(_ customer: ReadmeCustomer, _ change: KeyValueObservedChange<String>) {
    lines.append("renamed: \(change.oldValue!) → \(change.newValue!)")
  }
}

@Suite("Getting started: models as real code writes them")
struct ReadmeModelTests {
  @Test("the Codable model's JSON, weak and access-controlled properties, and withChange, as the article shows them")
  func models() throws {
    let document = ReadmeDocument()
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(document), as: UTF8.self) == #"{"pages":0,"title":""}"#)

    let editor = ReadmeEditor()
    let links = Counter()
    let linkToken = editor.observe(\.document) { _, _ in links.increment() }
    editor.document = document
    #expect(links.count == 1)
    #expect(throws: KeyValueCodingError.readOnly("owner", type: "ReadmeEditor")) { try editor.setValue("x", forKey: "owner") }
    #expect(throws: KeyValueCodingError.unknownKey("draft", type: "ReadmeEditor")) { try editor.value(forKey: "draft") }

    let changes = Recorder<Change<Int>>()
    let token = document.observe(\.pages, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    document.withChange(for: \.pages) {
      document.pages += 1
      document.pages += 1
    }
    #expect(changes.elements == [Change(old: 0, new: 2)])
    _ = (token, linkToken)
  }

  @Test("a controller action named as a method")
  func auditLog() {
    let customer = ReadmeCustomer()
    let log = ReadmeAuditLog(customer: customer)
    customer.first = "Augusta"
    #expect(log.lines.elements == ["renamed: Ada Lovelace → Augusta Lovelace"])
  }
}

/// The Observation article's model, for Swift Observation and key-value observing at once.
@KeyValueObservable
final class ReadmeSheet: Observable, @unchecked Sendable {
  var title = "Untitled"
  var rows: [Double] = []
  @KeyValueIgnored var scratch = 0
  var total: Double { rows.reduce(0, +) }
}

@Suite("Observation and SwiftUI, as the article shows it")
struct ReadmeObservationTests {
  @Test("one tracking fires once, before the first change; the token hears every change")
  func bothAtOnce() {
    let sheet = ReadmeSheet()
    let lines = Recorder<String>()
    withObservationTracking {
      lines.append("\(sheet.title) \(sheet.total)")
    } onChange: {
      lines.append("the sheet will change")
    }
    let token = sheet.observe(\.total, options: [.old, .new]) { _, change in
      lines.append("\(change.oldValue!) → \(change.newValue!)")
    }
    sheet.rows.append(2.5)
    sheet.rows.append(1.5)
    #expect(lines.elements == ["Untitled 0.0", "the sheet will change", "0.0 → 2.5", "2.5 → 4.0"])
    _ = token
  }

  @Test("an ignored property is not tracked")
  func ignoredNotTracked() {
    let sheet = ReadmeSheet()
    let fired = Recorder<Bool>()
    withObservationTracking { _ = sheet.scratch } onChange: { fired.append(true) }
    sheet.scratch = 1
    #expect(fired.elements.isEmpty)
  }
}

/// The async-sequence article's snippet where a reader pastes it: in
/// nonisolated synchronous code, printing into a recorder. Returns the
/// loops' tasks.
nonisolated func readmeSequenceTasks(_ customer: ReadmeCustomer, _ printed: Recorder<String>) -> [Task<Void, Never>] {
  let names = customer.changes(for: \.fullName, options: [.old, .new])
  let first = Task {
    for await change in names {
      printed.append("\(change.oldValue!) → \(change.newValue!)")
    }
  }
  let cities = customer.values(for: \.address?.city)
  let second = Task {
    for await city in cities { printed.append(city ?? "no address") }
  }
  return [first, second]
}

/// The observation-graph article's models (SeeingTheObservationGraph.md),
/// under the names it prints.
enum GraphArticle {
  @KeyValueObservable
  final class Address {
    var city = ""
  }

  @KeyValueObservable
  final class Person {
    var name = ""
    var address: Address?
  }

  final class ProfileScreen {
    lazy var kvo = KVOController(observer: self)
  }
}

@Suite("Seeing the observation graph, as the article shows it")
struct GraphArticleTests {
  @Test("the text and the Mermaid picture are the article's, the sites of its calls aside")
  func articleExample() {
    let ada = GraphArticle.Person()
    ada.address = GraphArticle.Address()
    let screen = GraphArticle.ProfileScreen()
    screen.kvo.observe(ada, \.name) { _, _, _ in }
    let city = ada.observe(\.address?.city, options: .new) { _, _ in }

    let graph = KeyValueObservationGraph(from: [ada])
    #expect(
      withoutSites(graph.description) == """
        KeyValueObservationGraph: 4 nodes, 3 edges
        KVOController<ProfileScreen> #2 → Person #1: name [] (controller)
        closure (Person, KeyValueObservedChange<Optional<String>>) #3 → Person #1: address?.city [.new] ← address, Address.city (token)
        Person #1 ⇢ Address #4: city, for address?.city (dependency)
        """
    )
    #expect(
      withoutSites(graph.mermaid) == """
        flowchart LR
          n1["Person #35;1"]
          n2{{"KVOController#lt;ProfileScreen#gt; #35;2"}}
          n3(["closure (Person, KeyValueObservedChange#lt;Optional#lt;String#gt;#gt;) #35;3"])
          n4["Address #35;4"]
          n2 -->|"name [] (controller)"| n1
          n3 -->|"address?.city [.new] ← address, Address.city (token)"| n1
          n1 -.->|"city, for address?.city (dependency)"| n4
        """
    )
    _ = city
  }
}
