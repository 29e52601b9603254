import KeyValueObserving
import Testing

@KeyValueObservable
class Dial {
  var level = 0
  var label = "dial"
}

/// A marked subclass overriding observable properties with property
/// observers, as ported Objective-C subclasses override setters.
@KeyValueObservable
final class LoggingDial: Dial {
  @KeyValueIgnored var events: [String] = []

  override var level: Int {
    willSet { events.append("willSet \(newValue)") }
    didSet { events.append("didSet \(oldValue)→\(level)") }
  }
}

/// Objective-C's order — the notification after the override's own work —
/// written as a computed override around `withChange(for:)`.
@KeyValueObservable
final class ClampedDial: Dial {
  @KeyValueIgnored var events: [String] = []

  override var level: Int {
    get { super.level }
    set {
      withChange(for: \.level) {
        super.level = newValue
        events.append("clamp \(super.level)")
        if super.level > 10 { super.level = 10 }
      }
    }
  }
}

/// An overriding computed property: observers see the most derived getter.
@KeyValueObservable
final class OffsetDial: Dial {
  override var level: Int {
    get { super.level + 100 }
    set { super.level = newValue - 100 }
  }
}

@Suite("Overrides: a marked subclass overriding an observable property")
struct OverrideTests {
  @Test("override var with willSet/didSet compiles and notifies once per assignment, from the superclass's setter")
  func observersOnOverride() throws {
    let dial = LoggingDial()
    let changes = Recorder<Change<Int>>()
    let token = dial.observe(\.level, options: [.old, .new]) { dial, change in
      dial.events.append("notified \(change.newValue!)")
      changes.append(Change(change))
    }
    dial.level = 42
    #expect(changes.elements == [Change(old: 0, new: 42)])
    #expect(dial.events == ["willSet 42", "notified 42", "didSet 0→42"])
    let log = ChangeLog()
    try dial.addObserver(log, forKeyPath: "level", options: .new)
    try dial.setValue(7, forKey: "level")
    #expect(changes.count == 2)
    #expect(log.last?.change[.new] as? Int == 7)
    #expect(dial.events.suffix(3) == ["willSet 7", "notified 7", "didSet 42→7"])
    _ = token
  }

  @Test("a computed override around withChange(for:) notifies once, after its own work, with the value it leaves")
  func withChangeOverride() {
    let dial = ClampedDial()
    let changes = Recorder<Change<Int>>()
    let token = dial.observe(\.level, options: [.old, .new, .prior]) { dial, change in
      dial.events.append(change.isPrior ? "prior" : "notified \(change.newValue!)")
      if !change.isPrior { changes.append(Change(change)) }
    }
    dial.level = 42
    #expect(changes.elements == [Change(old: 0, new: 10)])
    #expect(dial.events == ["prior", "clamp 42", "notified 10"])
    _ = token
  }

  @Test("an overriding computed property is observed through its own getter, by type, by string and through the base")
  func computedOverride() throws {
    let dial = OffsetDial()
    let changes = Recorder<Change<Int>>()
    let token = dial.observe(\.level, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    dial.level = 105
    #expect(changes.elements == [Change(old: 100, new: 105)])
    #expect(try dial.value(forKey: "level") as? Int == 105)
    let base: Dial = dial
    base.level = 110
    #expect(changes.elements.last == Change(old: 105, new: 110))
    let log = ChangeLog()
    try dial.addObserver(log, forKeyPath: "level", options: .new)
    dial.level = 120
    #expect(log.last?.change[.new] as? Int == 120)
    _ = token
  }
}
