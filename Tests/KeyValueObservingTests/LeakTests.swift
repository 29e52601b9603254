import KeyValueObserving
import Testing

/// An object that observes itself every way the library offers.
private final class SelfWatcher: KeyValueObserver {
  let person = Person()
  var token: KeyValueObservation?
  var derived: KeyValueObservation?
  var stream: KeyValueObservedSequence<KeyValueObservedChange<Int>>?
  lazy var kvo = KVOController(observer: self, retainsObserved: false)
  var seen = 0

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    seen += 1
  }
}

/// An observable object that observes itself through its own properties.
@KeyValueObservable
private final class Introspective {
  var level = 0
  var label: String { "level \(level)" }
  @KeyValueIgnored var token: KeyValueObservation?
  @KeyValueIgnored var derived: KeyValueObservation?
  @KeyValueIgnored var kvo: KVOController<Introspective>?
  @KeyValueIgnored var seen = 0
}

/// No retain cycle is created by the library, in every ownership pattern:
/// each test lets go of its objects and checks, through weak references,
/// that all of them were freed.
@Suite("Leaks: every object, observer, token and controller is freed")
struct LeakTests {
  @Test("an object that observes itself with a token, a derived key, a controller and a stream")
  func selfObservation() throws {
    weak var weakObject: Introspective?
    weak var weakController: KVOController<Introspective>?
    do {
      let object = Introspective()
      weakObject = object
      object.token = object.observe(\.level) { object, _ in object.seen += 1 }
      object.derived = object.observe(\.label) { object, _ in object.seen += 1 }
      let kvo = KVOController(observer: object, retainsObserved: false)
      weakController = kvo
      object.kvo = kvo
      kvo.observe(object, \.level) { object, _, _ in object.seen += 1 }
      try kvo.observe(object, keyPaths: ["label"]) { object, _, _ in object.seen += 1 }
      object.level = 1
      #expect(object.seen == 4)
    }
    #expect(weakObject == nil)
    #expect(weakController == nil)
  }

  @Test("an observer that owns the object it observes, every way")
  func observerOwnsObserved() throws {
    weak var weakWatcher: SelfWatcher?
    weak var weakPerson: Person?
    do {
      let watcher = SelfWatcher()
      weakWatcher = watcher
      weakPerson = watcher.person
      // A closure that captured `watcher` strongly would be the user's own
      // cycle (watcher → person → registration → closure → watcher), as
      // with a block in Objective-C; the controller's blocks need no capture.
      watcher.token = watcher.person.observe(\.age) { [unowned watcher] _, _ in watcher.seen += 1 }
      watcher.derived = watcher.person.observe(\.summary) { [unowned watcher] _, _ in watcher.seen += 1 }
      watcher.stream = watcher.person.changes(for: \.age)
      try watcher.person.addObserver(watcher, forKeyPath: "name")
      watcher.kvo.observe(watcher.person, \.age) { watcher, _, _ in watcher.seen += 1 }
      watcher.person.age = 1
      watcher.person.name = "x"
      #expect(watcher.seen == 5)
    }
    #expect(weakWatcher == nil)
    #expect(weakPerson == nil)
  }

  @Test("a controller owned by its observer, retaining what it observes: all freed with the observer")
  func controllerOwnedByObserver() {
    weak var weakObserver: SelfWatcher?
    weak var weakObserved: Person?
    weak var weakController: KVOController<SelfWatcher>?
    do {
      let observer = SelfWatcher()
      weakObserver = observer
      weakController = observer.kvo
      let observed = Person()
      weakObserved = observed
      observer.kvo = KVOController(observer: observer, retainsObserved: true)
      weakController = observer.kvo
      observer.kvo.observe(observed, \.age) { observer, _, _ in observer.seen += 1 }
      observer.kvo.observe(observed, \.summary) { observer, _, _ in observer.seen += 1 }
    }
    #expect(weakObserver == nil)
    #expect(weakController == nil)
    #expect(weakObserved == nil, "the retained object is released with the controller")
  }

  @Test("a chain whose links are replaced: the replaced links, the root and the observation are all freed")
  func replacedLinks() {
    weak var weakRoot: Resident?
    weak var firstLink: Address?
    weak var firstCity: City?
    weak var secondLink: Address?
    var seen = 0
    do {
      let root = Resident()
      weakRoot = root
      let token = root.observe(\.address?.city?.name) { _, _ in seen += 1 }
      do {
        let address = Address(street: "a", city: City(name: "Oslo"))
        firstLink = address
        firstCity = address.city
        root.address = address
      }
      root.address = Address(street: "b", city: City(name: "Bergen"))
      secondLink = root.address
      #expect(firstLink == nil, "a replaced link is not kept by the observation")
      #expect(firstCity == nil)
      root.address?.city = City(name: "Tromsø")
      withExtendedLifetime(token) {}
    }
    #expect(weakRoot == nil)
    #expect(secondLink == nil)
    #expect(seen == 3)
  }

  @Test("async sequences and queue deliveries let their object go")
  func sequencesAndQueues() {
    weak var weakGauge: Gauge?
    var stream: KeyValueObservedSequence<Int>?
    var token: KeyValueObservation?
    do {
      let gauge = Gauge()
      weakGauge = gauge
      stream = gauge.values(for: \.level)
      token = gauge.observeOnMainActor(\.level) { _, _ in }
    }
    #expect(weakGauge == nil, "a live stream and a live token do not keep the object")
    _ = (stream, token)
  }

  @Test("tokens and streams released before the object: its registrations are gone, nothing kept")
  func releasedFirst() {
    let person = Person()
    weak var weakCapture: Marker?
    do {
      let marker = Marker()
      weakCapture = marker
      let token = person.observe(\.age) { _, _ in _ = marker }
      let stream = person.changes(for: \.summary)
      let kvo = KVOController(observer: marker)
      kvo.observe(person, \.name) { marker, _, _ in _ = marker }
      _ = (token, stream)
    }
    #expect(weakCapture == nil)
    #expect(person.observationInfo.isEmpty)
  }
}
