import KeyValueObserving
import Testing

/// Keys that no assignment can notify, next to ones that only look alike.
@KeyValueObservable
final class Meter {
  let serial = "M-1"
  @KeyValueIgnored var rawReading = 0
  /// Reads only ignored storage and declares nothing.
  var reading: Int { rawReading }
  /// Reads only ignored storage, but its changes are announced by hand.
  var announced: Int { rawReading + 1 }
  /// Reads only ignored storage, and declares `calibration`.
  var calibrated: Int { rawReading * 2 }
  var calibration = 1
  @KeyValueIgnored var ignoredLink: Meter?
  var link: Meter?
  lazy var lazyLabel = "M"
}

extension Meter: KeyValueObservingCustomization {
  static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
    key == \Meter.calibrated ? [\Meter.calibration] : []
  }

  static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
    key != \Meter.announced
  }
}

/// A class the macro did not mark, under one it marked: what it declares
/// itself announces nothing.
final class UnmarkedShelf: Shelf {
  var extra = 0
}

/// A class the macro did not mark, and a marked subclass of it: what the
/// base declares announces nothing.
class PlainBase {
  var plain = 0
}

@KeyValueObservable
final class MarkedOnPlainBase: PlainBase {
  var own = 0
}

@Suite("String keys that nothing can notify are refused")
struct UnnotifiableKeyTests {
  @Test("addObserver on a property nothing announces throws .neverNotifies naming it")
  func addObserverRefuses() {
    let meter = Meter()
    let log = ChangeLog()
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "rawReading", key: "rawReading", type: "Meter")) {
      try meter.addObserver(log, forKeyPath: "rawReading")
    }
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "lazyLabel", key: "lazyLabel", type: "Meter")) {
      try meter.addObserver(log, forKeyPath: "lazyLabel", options: .initial)
    }
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "ignoredLink.calibration", key: "ignoredLink", type: "Meter")) {
      try meter.addObserver(log, forKeyPath: "ignoredLink.calibration")
    }
    #expect(log.count == 0, "no .initial for a refused registration")
    #expect(meter.observationInfo.isEmpty, "nothing was registered")
    let cache = KeyValueCodingError.neverNotifies(keyPath: "cache", key: "cache", type: "Person")
    #expect(cache.description.contains("Person.cache cannot be observed"))
  }

  @Test("a computed key over nothing observable is accepted by string as by key path, and both report it")
  func computedOverNothingAgrees() throws {
    let meter = Meter()
    let log = ChangeLog()
    var token: KeyValueObservation?
    let diagnostics = try capturingDiagnostics {
      try meter.addObserver(log, forKeyPath: "reading", options: [.initial, .new])
      token = meter.observe(\.reading) { _, _ in }
    }
    #expect(diagnostics.map(\.kind) == [.unobservableKeyPath, .unobservableKeyPath], "string and typed forms agree")
    #expect(diagnostics.first?.message.hasPrefix("observe(reading) on Meter never notifies") == true)
    #expect(log.count == 1 && log.last?.change[.new] as? Int == 0, "registered, and sent .initial")
    #expect(meter.removeObserver(log, forKeyPath: "reading"))
    _ = token
  }

  @Test("a constant is observed by string as Objective-C KVO allows: registered, sent .initial, never fired")
  func constantByString() throws {
    let meter = Meter()
    let log = ChangeLog()
    let reported = Recorder<String>()
    try KeyValueObservingDiagnostic.withHandler({ reported.append($0.message) }) {
      try meter.addObserver(log, forKeyPath: "serial", options: [.initial, .new])
    }
    #expect(reported.elements.isEmpty, "a constant is expected never to notify: nothing to report")
    #expect(log.count == 1 && log.last?.change[.new] as? String == "M-1", ".initial carries the constant")
    #expect(meter.observationInfo.count == 1, "the registration is listed")
    meter.calibration = 2
    meter.rawReading = 3
    #expect(log.count == 1, "nothing a constant depends on can change")
    #expect(meter.removeObserver(log, forKeyPath: "serial"), "and it is removed as any other")
    #expect(meter.observationInfo.isEmpty)
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "rawReading", key: "rawReading", type: "Meter")) {
      try meter.addObserver(log, forKeyPath: "rawReading")
    }
  }

  @Test("keys that something can notify are accepted: declared, announced by hand, chains through observable links")
  func notifiableKeysAccepted() throws {
    let meter = Meter()
    meter.link = Meter()
    let log = ChangeLog()
    try meter.addObserver(log, forKeyPath: "calibrated", options: .new)
    try meter.addObserver(log, forKeyPath: "announced", options: .new)
    try meter.addObserver(log, forKeyPath: "link.calibration", options: .new)
    meter.calibration = 3
    meter.link?.calibration = 5
    meter.rawReading = 10
    meter.willChangeValue(for: \.announced)
    meter.didChangeValue(for: \.announced)
    #expect(log.calls.elements.map(\.keyPath) == ["calibrated", "link.calibration", "announced"])
    #expect(log.last?.change[.new] as? Int == 11)
  }

  @Test("a controller's string forms refuse such keys before observing any, and an empty list")
  func controllerRefuses() {
    let observer = CountingObserver()
    let kvo = KVOController(observer: observer)
    let meter = Meter()
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "rawReading", key: "rawReading", type: "Meter")) {
      try kvo.observe(meter, keyPaths: ["calibration", "rawReading"]) { _, _, _ in }
    }
    #expect(meter.observationInfo.isEmpty, "the good key before the bad one was not observed either")
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Meter")) {
      try kvo.observe(meter, keyPaths: []) { _, _, _ in }
    }
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "rawReading", key: "rawReading", type: "Meter")) {
      try kvo.observe(meter, keyPath: "rawReading", context: nil)
    }
    #expect(meter.observationInfo.isEmpty)
  }

  @Test("a key that can never notify is reported with its class, its key, the reason and the fix")
  func reportsNameTheCause() throws {
    let unmarked = UnmarkedShelf()
    let onPlainBase = MarkedOnPlainBase()
    let meter = Meter()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(unmarked.observe(\.extra) { _, _ in })
      tokens.append(onPlainBase.observe(\.plain) { _, _ in })
      tokens.append(meter.observe(\.reading) { _, _ in })
      // Observable after all: inherited from the marked class, or its own.
      tokens.append(unmarked.observe(\.title) { _, _ in })
      tokens.append(onPlainBase.observe(\.own) { _, _ in })
    }
    let messages = diagnostics.map(\.message)
    try #require(messages.count == 3)
    #expect(messages[0].hasPrefix("observe(extra) on UnmarkedShelf never notifies: UnmarkedShelf is not marked @KeyValueObservable (its superclass Shelf is)"))
    #expect(messages[0].hasSuffix("mark UnmarkedShelf with @KeyValueObservable"))
    // A property of a class the macro did not mark has no name in any key
    // table: it is shown by the class it is read from and its type.
    #expect(messages[1].hasPrefix("observe(<a MarkedOnPlainBase property of type Int>) on MarkedOnPlainBase"))
    #expect(messages[1].contains(" on MarkedOnPlainBase never notifies: it reads no observable property, and MarkedOnPlainBase inherits from PlainBase"))
    #expect(messages[1].contains("mark PlainBase with @KeyValueObservable too"))
    #expect(messages[2].hasPrefix("observe(reading) on Meter never notifies: reading it touches no observable property"))
    #expect(diagnostics.allSatisfy { $0.kind == .unobservableKeyPath })
    withExtendedLifetime(tokens) {}
  }

  @Test("the string form of the same mistakes throws unknownKey and reports the typed form's hint")
  func stringFormNamesTheCause() throws {
    let unmarked = UnmarkedShelf()
    let onPlainBase = MarkedOnPlainBase()
    let log = ChangeLog()
    let diagnostics = capturingDiagnostics {
      #expect(throws: KeyValueCodingError.unknownKey(key: "extra", type: "UnmarkedShelf")) {
        try unmarked.addObserver(log, forKeyPath: "extra")
      }
      #expect(throws: KeyValueCodingError.unknownKey(key: "plain", type: "MarkedOnPlainBase")) {
        try onPlainBase.value(forKey: "plain")
      }
      #expect(throws: KeyValueCodingError.unknownKey(key: "extra", type: "UnmarkedShelf")) {
        try unmarked.willChangeValue(forKey: "extra")
      }
      // A key the marked class declares is found, with nothing reported.
      #expect(throws: Never.self) { try unmarked.addObserver(log, forKeyPath: "title") }
    }
    let messages = diagnostics.map(\.message)
    try #require(messages.count == 3)
    #expect(diagnostics.allSatisfy { $0.kind == .unreachableKey })
    #expect(
      messages.first
        == "\"extra\" is no key of UnmarkedShelf that key-value coding can reach: UnmarkedShelf is not marked "
        + "@KeyValueObservable (its superclass Shelf is), so the properties declared there have no keys; mark "
        + "UnmarkedShelf with @KeyValueObservable"
    )
    #expect(messages.dropFirst().first?.contains("MarkedOnPlainBase inherits from PlainBase, which is not marked") == true)
    #expect(
      messages.dropFirst().first?.hasSuffix(
        "mark PlainBase with @KeyValueObservable too; for a class you cannot mark (another module's), read what "
          + "PlainBase declares with a typed key path"
      ) == true
    )
    unmarked.removeObserver(log, forKeyPath: "title")
  }

  @Test("the typed observe of such a key still registers and reports unobservableKeyPath")
  func typedObserveReports() {
    let meter = Meter()
    var token: KeyValueObservation?
    let diagnostics = capturingDiagnostics {
      token = meter.observe(\.reading) { _, _ in }
    }
    #expect(diagnostics.map(\.kind) == [.unobservableKeyPath])
    _ = token
  }
}
