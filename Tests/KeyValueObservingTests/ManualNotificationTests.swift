import KeyValueObserving
import Testing

@Suite("Manual notification: willChangeValue / didChangeValue")
struct ManualNotificationTests {
  @Test("a key that does not notify automatically is silent when set, and notifies through will/did")
  func manualKey() {
    let ledger = Ledger()
    let changes = Recorder<Change<Int>>()
    let token = ledger.observe(\.level, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    ledger.level = 1
    #expect(changes.elements == [])
    ledger.willChangeValue(for: \.level)
    ledger.level = 2
    ledger.didChangeValue(for: \.level)
    #expect(changes.elements == [Change(old: 1, new: 2)], "old read at will, new at did")
    _ = token
  }

  @Test(".initial still fires for a key that does not notify automatically")
  func initialOnManualKey() {
    let ledger = Ledger()
    ledger.level = 3
    let changes = Recorder<Change<Int>>()
    let token = ledger.observe(\.level, options: [.initial, .new]) { _, change in changes.append(Change(change)) }
    #expect(changes.elements == [Change(old: nil, new: 3)])
    _ = token
  }

  @Test("nested pairs on one key notify once, for the outermost pair")
  func nestedPairs() {
    let ledger = Ledger()
    let changes = Recorder<Change<Int>>()
    let token = ledger.observe(\.level, options: [.old, .new, .prior]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.isPrior ? -1 : change.newValue))
    }
    ledger.willChangeValue(for: \.level)
    ledger.willChangeValue(for: \.level)
    ledger.level = 5
    ledger.didChangeValue(for: \.level)
    #expect(changes.elements == [Change(old: 0, new: -1)], "only the outer prior so far")
    ledger.level = 6
    ledger.didChangeValue(for: \.level)
    #expect(changes.elements == [Change(old: 0, new: -1), Change(old: 0, new: 6)])
    _ = token
  }

  @Test("assignments to an automatic key inside a pair fold into the pair's one notification")
  func settersInsideAPair() {
    let person = Person()
    let changes = Recorder<Change<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    person.willChangeValue(for: \.age)
    person.age = 1
    person.age = 2
    person.didChangeValue(for: \.age)
    #expect(changes.elements == [Change(old: 0, new: 2)])
    person.age = 3
    #expect(changes.elements.last == Change(old: 2, new: 3), "and automatic notification resumes after it")
    _ = token
  }

  @Test("the string forms name every key key-value coding reaches, and throw for empty or unknown ones")
  func stringForms() throws {
    let person = Person()
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.name, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    try person.willChangeValue(forKey: "name")
    person.name = "Ada"
    try person.didChangeValue(forKey: "name")
    #expect(changes.elements == [Change(old: "", new: "Ada")])

    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) {
      try person.willChangeValue(forKey: "")
    }
    #expect(throws: KeyValueCodingError.unknownKey(key: "nmae", type: "Person")) {
      try person.didChangeValue(forKey: "nmae")
    }
    // A computed key, as value(forKey:) and addObserver accept it.
    let summaries = Recorder<String>()
    let summary = person.observe(\.summary, options: .new) { _, change in summaries.append(change.newValue!) }
    try person.willChangeValue(forKey: "summary")
    try person.didChangeValue(forKey: "summary")
    #expect(summaries.elements == [person.summary], "the manual pair of a computed key notifies its observers")
    _ = summary
    #expect("\(KeyValueCodingError.unknownKey(key: "nmae", type: "Person"))" == "Person has no property \"nmae\" that key-value coding can reach")
    _ = token
  }

  @Test("the string forms work on an inherited key of a subclass")
  func stringFormsOnSubclass() throws {
    let truck = Truck()
    let changes = Recorder<Change<Int>>()
    let token = truck.observe(\.wheels, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    try truck.willChangeValue(forKey: "wheels")
    truck.wheels = 6
    try truck.didChangeValue(forKey: "wheels")
    #expect(changes.elements == [Change(old: 4, new: 6)])
    _ = token
  }

  @Test("a did without a will notifies nothing and breaks nothing")
  func didWithoutWill() {
    let ledger = Ledger()
    let count = Counter()
    let token = ledger.observe(\.level) { _, _ in count.increment() }
    ledger.didChangeValue(for: \.level)
    #expect(count.count == 0)
    ledger.willChangeValue(for: \.level)
    ledger.didChangeValue(for: \.level)
    #expect(count.count == 1)
    _ = token
  }

  @Test("a will never closed before the object is freed is harmless")
  func willNeverClosed() {
    var ledger: Ledger? = Ledger()
    let silenced = Counter()
    let token = ledger!.observe(\.level) { _, _ in silenced.increment() }
    ledger!.willChangeValue(for: \.level)
    ledger!.willChangeValue(for: \.level)
    ledger!.didChangeValue(for: \.level)
    #expect(silenced.count == 0, "the key stays silent on this thread while a will is open")
    ledger = nil
    #expect(!token.isActive)
    // Other objects on this thread still notify.
    let other = Ledger()
    let count = Counter()
    let otherToken = other.observe(\.level) { _, _ in count.increment() }
    other.willChangeValue(for: \.level)
    other.didChangeValue(for: \.level)
    #expect(count.count == 1)
    _ = otherToken
  }

  @Test("will/did on an unobserved object does nothing")
  func unobserved() {
    let person = Person()
    person.willChangeValue(for: \.age)
    person.age = 1
    person.didChangeValue(for: \.age)
    #expect(person.observationInfo.isEmpty)
  }

  @Test("will/did on a computed key notify its observers, with old and new values")
  func computedKey() {
    let ledger = Ledger()
    let changes = Recorder<Change<String>>()
    let token = ledger.observe(\.status, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    ledger.willChangeValue(for: \.status)
    ledger.rawStatus = "frozen"
    ledger.didChangeValue(for: \.status)
    #expect(changes.elements == [Change(old: "open", new: "frozen")])
    _ = token
  }

  @Test("will/did on a dependency notifies the computed keys that depend on it, once")
  func onADependency() {
    let person = Person(name: "Ada", age: 36)
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.summary, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    person.willChangeValue(for: \.age)
    person.age = 37
    person.name = "Grace"
    person.didChangeValue(for: \.age)
    // The name assignment is a change of its own, nested in the age pair:
    // the outermost did notifies, once.
    #expect(changes.elements == [Change(old: "Ada, 36", new: "Grace, 37")])
    _ = token
  }

  @Test("an object freed with a will-change never closed is reported once; one whose changes all closed is not")
  func unclosedWillChangeAtDeinit() {
    let leaked = capturingDiagnostics {
      let person = Person()
      let token = person.observe(\.age, options: .prior) { _, _ in }
      person.age = 1
      person.willChangeValue(for: \.name)
      token.invalidate()
    }
    #expect(leaked.filter { $0.kind == .unclosedWillChange }.count == 1)
    #expect(leaked.first { $0.kind == .unclosedWillChange }?.message.contains("with 1 willChangeValue") == true)
    let balanced = capturingDiagnostics {
      let person = Person()
      let token = person.observe(\.age, options: .prior) { person, change in
        // A change nested in the prior callback: counted, then closed.
        if change.isPrior { person.age = 5 }
      }
      person.age = 1
      person.willChangeValue(for: \.name)
      person.didChangeValue(for: \.name)
      token.invalidate()
    }
    #expect(!balanced.contains { $0.kind == .unclosedWillChange })
  }

  @Test("a computed key whose value changes where nothing observable does: announced by string, as Cocoa code does")
  func computedKeyByString() throws {
    let meter = Meter()
    let typed = Recorder<Change<Int>>()
    let log = ChangeLog()
    let token = meter.observe(\.announced, options: [.old, .new, .prior]) { _, change in
      if !change.isPrior { typed.append(Change(change)) }
    }
    try meter.addObserver(log, forKeyPath: "announced", options: [.old, .new])
    try meter.willChangeValue(forKey: "announced")
    meter.rawReading = 5
    try meter.didChangeValue(forKey: "announced")
    #expect(typed.elements == [Change(old: 1, new: 6)], "old and new read through the getter")
    #expect(log.count == 1 && log.last?.change[.old] as? Int == 1 && log.last?.change[.new] as? Int == 6)
    try meter.withChange(forKey: "announced") { meter.rawReading = 9 }
    #expect(typed.elements.last == Change(old: 6, new: 10), "withChange(forKey:) brackets a computed key too")
    #expect(log.count == 2)
    // A key no property backs is still refused, as before.
    #expect(throws: KeyValueCodingError.unknownKey(key: "anounced", type: "Meter")) {
      try meter.willChangeValue(forKey: "anounced")
    }
    #expect(meter.removeObserver(log, forKeyPath: "announced"))
    _ = token
  }
}
