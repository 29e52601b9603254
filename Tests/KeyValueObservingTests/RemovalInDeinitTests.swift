import KeyValueObserving
import Testing

/// A ported Objective-C observer: it registers in `init` and removes itself
/// in `deinit`, the remove-in-dealloc idiom.
private final class DeallocRemovingObserver: KeyValueObserver {
  let person: Person
  let removed: Recorder<Bool>

  init(person: Person, removed: Recorder<Bool>) throws {
    self.person = person
    self.removed = removed
    try person.addObserver(self, forKeyPath: "name")
    try person.addObserver(self, forKeyPath: "age", context: ageContext)
  }

  deinit {
    removed.append(person.removeObserver(self, forKeyPath: "name"))
    removed.append(person.removeObserver(self, forKeyPath: "age", context: ageContext))
  }

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {}
}

nonisolated(unsafe) private let ageContext = UnsafeMutableRawPointer(bitPattern: 0xA6E)!

/// An object that observes itself through a controller that does not retain
/// it, and unobserves itself in `deinit`.
@KeyValueObservable
private final class SelfWatchingModel {
  var title = ""
  @KeyValueIgnored var kvo: KVOController<SelfWatchingModel>!
  @KeyValueIgnored let registrationsLeftInDeinit: Recorder<Int>

  init(registrationsLeftInDeinit: Recorder<Int>) {
    self.registrationsLeftInDeinit = registrationsLeftInDeinit
    kvo = KVOController(observer: self, retainsObserved: false)
  }

  deinit {
    kvo.unobserve(self, \.title)
    registrationsLeftInDeinit.append(observationInfo.count)
  }
}

@Suite("Removal in deinit: the observer's own deinit removes its registrations")
struct RemovalInDeinitTests {
  @Test("removeObserver(self, …) from the observer's deinit succeeds, with and without a context, reporting nothing")
  func classicRemoveInDeinit() throws {
    let person = Person()
    let removed = Recorder<Bool>()
    let diagnostics = try capturingDiagnostics {
      var observer: DeallocRemovingObserver? = try DeallocRemovingObserver(person: person, removed: removed)
      #expect(person.observationInfo.count == 2)
      _ = observer
      observer = nil
      person.name = "Ada"  // no stale registration left to find freed
      person.age = 1
    }
    #expect(removed.elements == [true, true])
    #expect(person.observationInfo.isEmpty)
    #expect(diagnostics.isEmpty, "no unregisteredRemoval, no observerFreedWhileRegistered: \(diagnostics)")
  }

  @Test("a live observer that was never registered removes nothing, not even a freed observer's stale registration")
  func liveObserverKeepsIdentityCheck() throws {
    let person = Person()
    var freed: ChangeLog? = ChangeLog()
    try person.addObserver(freed!, forKeyPath: "name")
    freed = nil
    // Often allocated at the freed observer's address: the identity matches,
    // but the caller is alive, so the stale registration is not its own.
    let live = ChangeLog()
    let diagnostics = capturingDiagnostics {
      #expect(person.removeObserver(live, forKeyPath: "name") == false)
    }
    #expect(diagnostics.map(\.kind) == [.unregisteredRemoval])
    #expect(allRegistrations(on: person).count == 1, "the stale registration waits for its key's next change")
    try person.addObserver(live, forKeyPath: "name")
    #expect(person.removeObserver(live, forKeyPath: "name"))
  }

  @Test("a controller's observer unobserving itself in its deinit ends the observation there")
  func controllerUnobserveInDeinit() {
    let left = Recorder<Int>()
    var model: SelfWatchingModel? = SelfWatchingModel(registrationsLeftInDeinit: left)
    model!.kvo.observe(model!, \.title) { _, _, _ in }
    #expect(model!.observationInfo.count == 1)
    model = nil
    #expect(left.elements == [0], "unobserve(self, \\.title) in deinit found the observation")
  }
}

/// Resets its own properties in `deinit`, as cleanup code does.
@KeyValueObservable
final class ResettingModel {
  var title = "t"
  var tags: [String] = ["a"]

  deinit {
    title = ""
    willChangeValue(for: \.tags)
    tags = []
    didChangeValue(for: \.tags)
    mutableArrayValue(for: \.tags).append("late")
  }
}

@Suite("Writes in the observed object's own deinit")
struct WritesInDeinitTests {
  @Test("a write made in the observed object's deinit notifies nobody, and nothing is reported")
  func silentInDeinit() {
    let seen = Recorder<String>()
    let log = CountingObserver()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens = observeAndFree(seen: seen, log: log)
    }
    #expect(seen.elements == ["title=live"])
    #expect(log.count.count == 1)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(tokens.count == 2 && tokens.allSatisfy { !$0.isActive }, "the model was freed")
  }
}

/// Observes a model every way, writes once, and lets the model go: its
/// deinit writes again.
private func observeAndFree(seen: Recorder<String>, log: CountingObserver) -> [KeyValueObservation] {
  let model = ResettingModel()
  // Were a handler called in the deinit, the object it is handed would be
  // one being freed.
  let title = model.observe(\.title, options: .new) { _, change in seen.append("title=\(change.newValue!)") }
  let tags = model.observe(\.tags, options: .new) { _, change in seen.append("tags=\(change.newValue!)") }
  try? model.addObserver(log, forKeyPath: "title", options: .new)
  model.title = "live"
  return [title, tags]
}

