import KeyValueObserving
import Testing

/// Every misuse that crashes Objective-C KVO, one test each, showing it is
/// harmless here — and reported through the diagnostics hook where the
/// developer should hear about it.
///
/// (A nil key path, the last crash on the usual list, cannot be written:
/// every key parameter is a non-optional `String` or `KeyPath`. The empty
/// string is its nearest equivalent and is covered below.)
@Suite("Misuse inventory: what crashes Objective-C KVO is harmless here")
struct MisuseInventoryTests {
  @Test("removing an observer that was never registered: false, reported, nothing else")
  func removeUnregistered() throws {
    let person = Person()
    let registered = ChangeLog()
    try person.addObserver(registered, forKeyPath: "name")
    let diagnostics = capturingDiagnostics {
      #expect(!person.removeObserver(ChangeLog(), forKeyPath: "name"))
    }
    #expect(diagnostics.map(\.kind) == [.unregisteredRemoval])
    person.name = "Ada"
    #expect(registered.count == 1)
  }

  @Test("removing twice: the second removal is false and reported")
  func removeTwice() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "name")
    var results: [Bool] = []
    let diagnostics = capturingDiagnostics {
      results.append(person.removeObserver(log, forKeyPath: "name"))
      results.append(person.removeObserver(log, forKeyPath: "name"))
    }
    #expect(results == [true, false])
    #expect(diagnostics.map(\.kind) == [.unregisteredRemoval])
  }

  @Test("invalidating a token twice, and after the object is gone, is harmless and silent")
  func invalidateTwice() {
    var person: Person? = Person()
    let token = person!.observe(\.age) { _, _ in }
    let diagnostics = capturingDiagnostics {
      token.invalidate()
      token.invalidate()
      let other = person!.observe(\.age) { _, _ in }
      person = nil
      other.invalidate()
    }
    #expect(diagnostics.isEmpty)
    #expect(!token.isActive)
  }

  @Test("adding the same observer twice: counted, as Apple counts, not a crash")
  func addTwice() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "age")
    try person.addObserver(log, forKeyPath: "age")
    person.age = 1
    #expect(log.count == 2)
  }

  @Test("an empty key or key path component: a thrown KeyValueCodingError from every string API")
  func emptyKey() {
    let person = Person()
    let empty = KeyValueCodingError.emptyKey(keyPath: "", type: "Person")
    #expect(throws: empty) { try person.addObserver(ChangeLog(), forKeyPath: "") }
    #expect(throws: empty) { try person.value(forKey: "") }
    #expect(throws: empty) { try person.setValue(1, forKey: "") }
    #expect(throws: empty) { try person.willChangeValue(forKey: "") }
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "address.", type: "Resident")) {
      try Resident().value(forKeyPath: "address.")
    }
  }

  @Test("an unknown key: a thrown KeyValueCodingError naming the key and the type")
  func unknownKey() {
    let person = Person()
    let unknown = KeyValueCodingError.unknownKey(key: "nmae", type: "Person")
    #expect(throws: unknown) { try person.addObserver(ChangeLog(), forKeyPath: "nmae") }
    #expect(throws: unknown) { try person.value(forKey: "nmae") }
    #expect(throws: unknown) { try person.setValue("x", forKey: "nmae") }
    #expect(throws: unknown) { try person.didChangeValue(forKey: "nmae") }
    #expect(person.observationInfo.isEmpty, "nothing was registered")
  }

  @Test("an observer freed while registered: never messaged, dropped, reported")
  func observerFreed() throws {
    let person = Person()
    var log: ChangeLog? = ChangeLog()
    try person.addObserver(log!, forKeyPath: "name")
    log = nil
    let diagnostics = capturingDiagnostics { person.name = "Ada" }
    #expect(diagnostics.map(\.kind) == [.observerFreedWhileRegistered])
    #expect(person.observationInfo.isEmpty)
  }

  @Test("an observed object freed while observed: registrations end silently, tokens stay inert")
  func observedObjectFreed() throws {
    let log = ChangeLog()
    var calls = 0
    var person: Person? = Person()
    weak let weakPerson = person
    try person!.addObserver(log, forKeyPath: "name")
    let token = person!.observe(\.name) { _, _ in calls += 1 }
    let diagnostics = capturingDiagnostics { person = nil }
    #expect(weakPerson == nil, "observing does not keep the object alive")
    #expect(diagnostics.isEmpty)
    #expect(!token.isActive)
    token.invalidate()
    #expect(calls == 0 && log.count == 0)
  }

  @Test("adding, removing and setting inside a callback: no deadlock, no crash, next change sees the result")
  func mutationInsideCallback() throws {
    let person = Person()
    let log = ChangeLog()
    var token: KeyValueObservation?
    var inner: KeyValueObservation?
    var innerCalls = 0
    token = person.observe(\.age) { person, _ in
      token?.invalidate()
      inner = person.observe(\.age) { _, _ in innerCalls += 1 }
      try? person.addObserver(log, forKeyPath: "age")
      person.removeObserver(log, forKeyPath: "age")
      person.name = "set inside"
    }
    person.age = 1
    #expect(person.name == "set inside")
    #expect(innerCalls == 0, "a registration added during a change waits for the next one")
    person.age = 2
    #expect(innerCalls == 1)
    #expect(log.count == 0)
    withExtendedLifetime((token, inner)) {}
  }

  @Test("a did-change without a will-change notifies nothing and is reported")
  func unmatchedDidChange() {
    let person = Person()
    var calls = 0
    let token = person.observe(\.age) { _, _ in calls += 1 }
    let diagnostics = capturingDiagnostics { person.didChangeValue(for: \.age) }
    #expect(calls == 0)
    #expect(diagnostics.map(\.kind) == [.unmatchedDidChange])
    withExtendedLifetime(token) {}
  }
}
