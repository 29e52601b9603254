import Dispatch
import KeyValueObserving
@_spi(SwiftUI) import Observation
import Synchronization
import Testing

/// A subclass: tracked through its superclass's declaration.
@KeyValueObservable
final class DetailedSheet: Sheet, @unchecked Sendable {
  var detail = ""
}

/// A model whose `log` is notified by hand for key-value observing.
@KeyValueObservable
final class ManualLog: Observable, KeyValueObservingCustomization, @unchecked Sendable {
  var log: [String] = []

  static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
    key != \ManualLog.log
  }
}

/// A model isolated to the main actor, as SwiftUI models usually are.
@MainActor
@KeyValueObservable
final class ScreenModel: Observable {
  var headline = "Hello"
  // Observers of its own keep the storage isolated: reported by pattern.
  var zoom = 1 {
    didSet { if zoom < 1 { zoom = 1 } }
  }
}

/// A generic model: its key paths are formed where they are reported (a
/// generic class can keep no static constants).
@KeyValueObservable
final class TrackedBox<Content>: Observable {
  var content: Content
  var revision = 0

  init(_ content: Content) {
    self.content = content
  }
}

/// A generic type whose extension holds a model: an extension's type may be
/// generic, so the model forms its key paths where they are reported.
struct Rack<Item> {}

extension Rack {
  @KeyValueObservable
  final class Label: Observable {
    var text = ""
  }
}

/// A non-generic type holding a model, which keeps its key paths in
/// static constants.
enum Drawer {
  @KeyValueObservable
  final class Note: Observable {
    var text = ""
  }
}

/// Reads with `read` inside `withObservationTracking`, then runs `change`,
/// and says how many times the tracking's `onChange` ran.
func observationChanges(reading read: () -> Void, after change: () -> Void) -> Int {
  let changes = ChangeCount()
  withObservationTracking(read, onChange: { changes.increment() })
  change()
  return changes.count
}

/// A protocol that refines `Observable`, and a class `Observable` only
/// through it: the macro does not see the conformance.
protocol TrackedModel: Observable {}

@KeyValueObservable
final class RefinedSheet: TrackedModel, @unchecked Sendable {
  var title = ""
  var count = 0
}

/// `@Observable`'s class of the same shape.
@Observable
final class ObservationRefinedSheet: TrackedModel {
  var title = ""
}

/// A class that intercepts tracked reads and writes with its own
/// `access(keyPath:)` and `withMutation(keyPath:_:)`, as Swift's own tests
/// do with `@Observable`.
@KeyValueObservable
final class InterceptingSheet: Observable, @unchecked Sendable {
  var field = 3
  @KeyValueIgnored var accessed: [PartialKeyPath<InterceptingSheet>] = []
  @KeyValueIgnored var mutated: [PartialKeyPath<InterceptingSheet>] = []

  func access<Member>(keyPath: KeyPath<InterceptingSheet, Member>) {
    accessed.append(keyPath)
    _$kvoObservationRegistrar.access(self, keyPath: keyPath)
  }

  func withMutation<Member, T>(keyPath: KeyPath<InterceptingSheet, Member>, _ mutation: () throws -> T) rethrows -> T {
    mutated.append(keyPath)
    return try _$kvoObservationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
  }
}

/// The same with `@Observable`.
@Observable
final class ObservationInterceptingSheet {
  var field = 3
  @ObservationIgnored var accessed: [PartialKeyPath<ObservationInterceptingSheet>] = []
  @ObservationIgnored var mutated: [PartialKeyPath<ObservationInterceptingSheet>] = []

  func access<Member>(keyPath: KeyPath<ObservationInterceptingSheet, Member>) {
    accessed.append(keyPath)
    _$observationRegistrar.access(self, keyPath: keyPath)
  }

  func withMutation<Member, T>(keyPath: KeyPath<ObservationInterceptingSheet, Member>, _ mutation: () throws -> T) rethrows -> T {
    mutated.append(keyPath)
    return try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
  }
}

/// `@Observable`'s own class, to compare what Observation hears.
@Observable
final class ObservationSheet {
  var title = ""
}

/// The key path a tracking that read `read` is told changed, when `change`
/// runs: what SwiftUI and `Observations` compare.
func changedKeyPath(reading read: () -> Void, after change: () -> Void) -> AnyKeyPath? {
  /// Written by the tracking, on this thread, during `change`.
  final class Changed: @unchecked Sendable {
    var keyPath: AnyKeyPath?
  }
  let changed = Changed()
  withObservationTracking(read, willSet: { tracking in changed.keyPath = tracking.changed })
  change()
  return changed.keyPath
}

@Suite("Swift Observation: a class that declares Observable is tracked")
struct ObservationTests {
  @Test("a stored write fires withObservationTracking once, before the value changes")
  func storedWrite() {
    let sheet = Sheet()
    let seen = Recorder<String>()
    withObservationTracking {
      _ = sheet.title
    } onChange: { [sheet] in
      seen.append(sheet.title)
    }
    sheet.title = "Budget"
    sheet.title = "Again"
    #expect(seen.elements == [""], "once, at the will of the first write")
  }

  @Test("Observation is told the property's key path, \\Sheet.title, as @Observable tells it")
  func propertyKeyPathReported() {
    let theirs = ObservationSheet()
    #expect(changedKeyPath(reading: { _ = theirs.title }, after: { theirs.title = "x" }) == \ObservationSheet.title)
    let sheet = Sheet()
    #expect(changedKeyPath(reading: { _ = sheet.title }, after: { sheet.title = "x" }) == \Sheet.title)
    #expect(changedKeyPath(reading: { _ = sheet.count }, after: { try? sheet.setValue(2, forKey: "count") }) == \Sheet.count)
    let detailed = DetailedSheet()
    #expect(changedKeyPath(reading: { _ = detailed.detail }, after: { detailed.detail = "d" }) == \DetailedSheet.detail)
    let note = Drawer.Note()
    #expect(changedKeyPath(reading: { _ = note.text }, after: { note.text = "n" }) == \Drawer.Note.text)
  }

  @Test("a class's own access(keyPath:) and withMutation(keyPath:_:) see every tracked read and write, as with @Observable")
  func accessAndMutationHooks() {
    let theirs = ObservationInterceptingSheet()
    _ = theirs.field
    theirs.field = 123
    #expect(theirs.accessed == [\ObservationInterceptingSheet.field])
    #expect(theirs.mutated == [\ObservationInterceptingSheet.field])

    let sheet = InterceptingSheet()
    _ = sheet.field
    #expect(sheet.accessed == [\InterceptingSheet.field] && sheet.mutated.isEmpty)
    sheet.field = 123
    #expect(sheet.accessed == [\InterceptingSheet.field], "a write reads nothing")
    #expect(sheet.mutated == [\InterceptingSheet.field])
    sheet.field += 1
    try? sheet.setValue(7, forKey: "field")
    #expect(sheet.mutated.count == 3, "in place and by string too")
    // The hooks hand on to the registrar: tracking still works.
    #expect(observationChanges(reading: { _ = sheet.field }, after: { sheet.field = 1 }) == 1)
  }

  @Test("a class Observable through a protocol that refines it is tracked, as @Observable's is")
  func observableThroughAProtocol() {
    let theirs = ObservationRefinedSheet()
    #expect(observationChanges(reading: { _ = theirs.title }, after: { theirs.title = "x" }) == 1)
    let sheet = RefinedSheet()
    #expect(observationChanges(reading: { _ = sheet.title }, after: { sheet.title = "x" }) == 1)
    #expect(observationChanges(reading: { _ = sheet.count }, after: { try? sheet.setValue(2, forKey: "count") }) == 1)
    #expect(observationChanges(reading: { _ = sheet.count }, after: { sheet.title = "y" }) == 0, "another key")
    #expect(changedKeyPath(reading: { _ = sheet.title }, after: { sheet.title = "z" }) == \RefinedSheet.title)
    // Key-value observing is as for any class.
    let seen = Recorder<String>()
    let token = sheet.observe(\.title, options: .new) { _, change in seen.append(change.newValue!) }
    sheet.title = "kvo"
    #expect(seen.elements == ["kvo"])
    token.invalidate()
  }

  @Test("a main-actor class reports its properties' key paths too, with observers of their own or not")
  @MainActor
  func isolatedPropertyKeyPathReported() {
    let screen = ScreenModel()
    #expect(changedKeyPath(reading: { _ = screen.headline }, after: { screen.headline = "x" }) == \ScreenModel.headline)
    #expect(changedKeyPath(reading: { _ = screen.zoom }, after: { screen.zoom = 3 }) == \ScreenModel.zoom)
  }

  @Test("a write to a dependency of a computed property fires a tracking that read the computed property")
  func computedDependency() {
    let sheet = Sheet()
    #expect(observationChanges(reading: { _ = sheet.summary }, after: { sheet.count = 2 }) == 1)
  }

  @Test("setValue(_:forKey:) fires the tracking")
  func keyValueCoding() throws {
    let sheet = Sheet()
    let changes = ChangeCount()
    withObservationTracking({ _ = sheet.count }, onChange: { changes.increment() })
    try sheet.setValue(4, forKey: "count")
    #expect(changes.count == 1)
    #expect(sheet.count == 4)
  }

  @Test("array and set proxy mutations fire the tracking")
  func proxies() {
    let sheet = Sheet()
    #expect(observationChanges(reading: { _ = sheet.rows }, after: { sheet.mutableArrayValue(for: \.rows).append(1) }) == 1)
    #expect(observationChanges(reading: { _ = sheet.tags }, after: { sheet.mutableSetValue(for: \.tags).insert("a") }) == 1)
    #expect(sheet.rows == [1])
    #expect(sheet.tags == ["a"])
  }

  @Test("an in-place mutation (rows.append) fires the tracking, and KVO hears it as before")
  func inPlaceMutation() {
    let sheet = Sheet()
    let kvo = Recorder<[Int]>()
    #expect(observationChanges(reading: { _ = sheet.rows }, after: { sheet.rows.append(7) }) == 1)
    let token = sheet.observe(\.rows, options: .new) { _, change in kvo.append(change.newValue!) }
    #expect(observationChanges(reading: { _ = sheet.rows }, after: { sheet.rows.append(8) }) == 1)
    #expect(kvo.elements == [[7, 8]])
    _ = token
  }

  @Test("a manual change fires the tracking: withChange and a will/did pair")
  func manualChange() {
    let sheet = Sheet()
    #expect(observationChanges(reading: { _ = sheet.count }, after: { sheet.withChange(for: \.count) {} }) == 1)
    #expect(
      observationChanges(reading: { _ = sheet.title }, after: {
        sheet.willChangeValue(for: \.title)
        sheet.didChangeValue(for: \.title)
      }) == 1
    )
  }

  @Test("a key notified by hand for KVO: Observation still hears an in-place mutation, KVO does not")
  func manuallyNotifiedKey() {
    let model = ManualLog()
    let kvo = Recorder<[String]>()
    let token = model.observe(\.log, options: .new) { _, change in kvo.append(change.newValue!) }
    #expect(observationChanges(reading: { _ = model.log }, after: { model.log.append("a") }) == 1)
    #expect(kvo.elements.isEmpty, "automatic notification is off for log")
    #expect(model.log == ["a"])
    _ = token
  }

  @Test("a subclass's own properties and its superclass's are tracked")
  func subclass() {
    let sheet = DetailedSheet()
    #expect(observationChanges(reading: { _ = sheet.detail }, after: { sheet.detail = "more" }) == 1)
    #expect(observationChanges(reading: { _ = sheet.title }, after: { sheet.title = "t" }) == 1)
    #expect(observationChanges(reading: { _ = sheet.detail }, after: { sheet.title = "u" }) == 0)
  }

  @Test("keys the tracking did not read, and ignored keys, do not fire it")
  func unreadAndIgnoredKeys() {
    let sheet = Sheet()
    #expect(observationChanges(reading: { _ = sheet.title }, after: { sheet.count = 1 }) == 0)
    #expect(observationChanges(reading: { _ = sheet.cache }, after: { sheet.cache = 1 }) == 0)
  }

  @Test("KVO and Observation both hear one write, each by its own rules")
  func bothHearOneWrite() {
    let sheet = Sheet()
    let kvo = Recorder<Change<String>>()
    let token = sheet.observe(\.title, options: [.old, .new]) { _, change in
      kvo.append(Change(old: change.oldValue, new: change.newValue))
    }
    let observation = ChangeCount()
    withObservationTracking({ _ = sheet.title }, onChange: { observation.increment() })
    sheet.title = "A"
    sheet.title = "B"
    #expect(observation.count == 1, "Observation's onChange fires once")
    #expect(kvo.elements == [Change(old: "", new: "A"), Change(old: "A", new: "B")], "KVO hears every write")
    _ = token
  }

  @Test("generic classes and classes nested in other types are tracked, for stored writes and key-value coding")
  func genericAndNestedClasses() throws {
    let box = TrackedBox([1])
    #expect(observationChanges(reading: { _ = box.content }, after: { box.content.append(2) }) == 1)
    #expect(observationChanges(reading: { _ = box.revision }, after: { try? box.setValue(3, forKey: "revision") }) == 1)
    #expect(observationChanges(reading: { _ = box.revision }, after: { box.content = [] }) == 0)
    let label = Rack<Int>.Label()
    #expect(observationChanges(reading: { _ = label.text }, after: { label.text = "spices" }) == 1)
    let note = Drawer.Note()
    #expect(observationChanges(reading: { _ = note.text }, after: { note.text = "milk" }) == 1)
    #expect(observationChanges(reading: { _ = note.text }, after: { try? note.setValue("eggs", forKey: "text") }) == 1)
  }

  @Test("a class isolated to the main actor is tracked")
  @MainActor
  func mainActorClass() {
    let model = ScreenModel()
    #expect(observationChanges(reading: { _ = model.headline }, after: { model.headline = "Bye" }) == 1)
    #expect(observationChanges(reading: { _ = model.zoom }, after: { model.zoom = 0 }) == 1)
    #expect(model.zoom == 1)
    #expect(observationChanges(reading: { _ = model.zoom }, after: { model.headline = "Again" }) == 0)
    #expect(observationChanges(reading: { _ = model.headline }, after: { try? model.setValue("By key", forKey: "headline") }) == 1)
  }

  @Test("Observations yields the current value, then the changed one", .timeLimit(.minutes(1)))
  func observations() async {
    let sheet = Sheet()
    sheet.title = "first"
    let titles = Observations { sheet.title }
    var iterator = titles.makeAsyncIterator()
    #expect(await iterator.next() == "first")
    sheet.title = "second"
    #expect(await iterator.next() == "second")
  }

  @Test("Observation and KVO registrations and writes from many threads at once")
  func manyThreads() {
    let sheet = Sheet()
    let kvo = ChangeCount()
    let observation = ChangeCount()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<200 {
        let token = sheet.observe(\.count) { _, _ in kvo.increment() }
        withObservationTracking({ _ = sheet.count }, onChange: { observation.increment() })
        // Each property's storage is written by one thread only: the
        // library guards its own state, not the model's data.
        switch thread {
        case 0: sheet.rows.append(index)
        case 1: sheet.mutableSetValue(for: \.tags).insert("\(index)")
        default: sheet.withChange(for: \.count) {}
        }
        token.invalidate()
      }
    }
    #expect(observation.count > 0)
    #expect(kvo.count >= 400, "each manual change of count heard at least by the token of its own thread")
    #expect(sheet.rows.count == 200)
    #expect(sheet.tags.count == 200)
    #expect(sheet.observationInfo.isEmpty)
  }
}
