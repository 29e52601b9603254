import KeyValueObserving
import Testing

/// Distinct context pointers, as `&someStatic` would give in user code.
nonisolated(unsafe) private let contextA = UnsafeMutableRawPointer(bitPattern: 0xA0)!
nonisolated(unsafe) private let contextB = UnsafeMutableRawPointer(bitPattern: 0xB0)!

@Suite("Classic observers: addObserver(_:forKeyPath:options:context:) with change dictionaries")
struct ClassicObserverTests {
  @Test("a change dictionary holds the kind and only the values the options asked for")
  func dictionaryFollowsOptions() throws {
    let person = Person(name: "Ada", age: 36)
    let bare = ChangeLog()
    let both = ChangeLog()
    let newOnly = ChangeLog()
    try person.addObserver(bare, forKeyPath: "age")
    try person.addObserver(both, forKeyPath: "age", options: [.old, .new])
    try person.addObserver(newOnly, forKeyPath: "age", options: .new)
    person.age = 37

    #expect(bare.last?.keys == ["kind"])
    #expect(bare.last?.kind == .setting)
    #expect(both.last?.keys == ["kind", "new", "old"])
    #expect(both.last?.change[.old] as? Int == 36)
    #expect(both.last?.change[.new] as? Int == 37)
    #expect(newOnly.last?.keys == ["kind", "new"], "no old value although another observer asked for one")
    #expect(both.last?.keyPath == "age")
    #expect(both.last?.object === person)
  }

  @Test(".initial arrives before addObserver returns, with the new value only; .prior comes before the change")
  func initialAndPrior() throws {
    let person = Person(name: "Ada", age: 36)
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "name", options: [.initial, .old, .new, .prior])
    #expect(log.count == 1)
    #expect(log.last?.keys == ["kind", "new"])
    #expect(log.last?.change[.new] as? String == "Ada")

    log.onChange = { call in
      if call.isPrior {
        #expect(person.name == "Ada", "the prior notification comes before the assignment")
      }
    }
    person.name = "Grace"
    let calls = log.calls.elements
    #expect(calls.count == 3)
    #expect(calls[1].keys == ["kind", "notificationIsPrior", "old"])
    #expect(calls[1].change[.old] as? String == "Ada")
    #expect(calls[2].keys == ["kind", "new", "old"])
    #expect(calls[2].change[.new] as? String == "Grace")
  }

  @Test("an optional property holding nil is present in the dictionary as a value that casts to nothing")
  func optionalValues() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "nickname", options: [.old, .new])
    person.nickname = "Countess"
    #expect(log.last?.keys == ["kind", "new", "old"])
    #expect(log.last?.change[.old] as? String == nil)
    #expect(log.last?.change[.new] as? String == "Countess", "a value, not an optional wrapping it")
    person.nickname = nil
    #expect(log.last?.change[.new] as? String == nil)
    #expect(log.last?.change[.old] as? String == "Countess")
  }

  @Test("the context comes back with every change")
  func context() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "age", context: contextA)
    try person.addObserver(log, forKeyPath: "name", context: contextB)
    person.age = 1
    #expect(log.last?.context == contextA)
    person.name = "x"
    #expect(log.last?.context == contextB)
  }

  @Test("the same observer, key and context added twice delivers twice; each remove takes one away")
  func countsLikeApple() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "age", context: contextA)
    try person.addObserver(log, forKeyPath: "age", context: contextA)
    person.age = 1
    #expect(log.count == 2)
    #expect(person.removeObserver(log, forKeyPath: "age", context: contextA))
    person.age = 2
    #expect(log.count == 3)
    #expect(person.removeObserver(log, forKeyPath: "age", context: contextA))
    person.age = 3
    #expect(log.count == 3)
  }

  @Test("removal without a context takes the most recent registration; with one, only a matching one")
  func removalMatching() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "age", context: contextA)
    try person.addObserver(log, forKeyPath: "age", context: contextB)
    #expect(person.removeObserver(log, forKeyPath: "age"))
    person.age = 1
    #expect(log.calls.elements.map(\.context) == [contextA], "the later registration, with context B, went")

    let diagnostics = capturingDiagnostics {
      #expect(!person.removeObserver(log, forKeyPath: "age", context: nil), "a nil context matches only nil")
      #expect(!person.removeObserver(log, forKeyPath: "name"), "another key matches nothing")
    }
    #expect(diagnostics.map(\.kind) == [.unregisteredRemoval, .unregisteredRemoval])
    person.age = 2
    #expect(log.count == 2, "the registration with context A is still there")
  }

  @Test("removing what was never added, or twice, returns false, reports it and changes nothing")
  func unregisteredRemoval() throws {
    let person = Person()
    let log = ChangeLog()
    let other = ChangeLog()
    try person.addObserver(other, forKeyPath: "age")
    let diagnostics = capturingDiagnostics {
      #expect(!person.removeObserver(log, forKeyPath: "age"))
      #expect(!Person().removeObserver(log, forKeyPath: "age"), "an object nobody ever observed")
      #expect(!person.removeObserver(log, forKeyPath: ""), "an empty key is not thrown for removal")
    }
    #expect(diagnostics.count == 3)
    #expect(diagnostics.allSatisfy { $0.kind == .unregisteredRemoval })
    #expect(diagnostics[0].message.contains("ChangeLog"))
    #expect(diagnostics[0].message.contains("\"age\""))
    person.age = 1
    #expect(other.count == 1, "the other observer's registration is untouched")
  }

  @Test("observers are held weakly: one freed while registered is never messaged and its registration goes")
  func freedObserver() throws {
    let person = Person()
    var log: ChangeLog? = ChangeLog()
    weak let weakLog = log
    let survivor = ChangeLog()
    try person.addObserver(log!, forKeyPath: "age")
    try person.addObserver(survivor, forKeyPath: "age")
    log = nil
    #expect(weakLog == nil, "the registration does not keep the observer alive")
    let diagnostics = capturingDiagnostics {
      person.age = 1
      person.age = 2
    }
    #expect(survivor.count == 2)
    #expect(diagnostics.map(\.kind) == [.observerFreedWhileRegistered], "reported once")
    #expect(person.observationInfo.count == 1, "the freed observer's registration was removed")
  }

  @Test("registrations of freed observers of keys that never change are dropped by a later addObserver")
  func freedObserverOfQuietKey() throws {
    let person = Person()
    var log: ChangeLog? = ChangeLog()
    try person.addObserver(log!, forKeyPath: "name")
    log = nil
    let survivor = ChangeLog()
    _ = capturingDiagnostics {
      try? person.addObserver(survivor, forKeyPath: "age")
    }
    #expect(person.observationInfo.map(\.keyPath) == ["age"])
  }

  @Test("with many observers, the freed ones are swept once the registrations have doubled")
  func sweepWhenDoubled() throws {
    let person = Person()
    var freed: [ChangeLog]? = (0..<10).map { _ in ChangeLog() }
    for observer in freed! { try person.addObserver(observer, forKeyPath: "name") }
    freed = nil
    let survivors = (0..<10).map { _ in ChangeLog() }
    _ = try capturingDiagnostics {
      for observer in survivors { try person.addObserver(observer, forKeyPath: "name") }
    }
    #expect(person.observationInfo.count == 10, "the ten freed observers' registrations were swept")
    for observer in survivors { #expect(person.removeObserver(observer, forKeyPath: "name")) }
    #expect(person.observationInfo.isEmpty)
  }

  @Test("an empty, unknown or non-observable key path is refused at registration")
  func badKeyPaths() {
    let person = Person()
    let log = ChangeLog()
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) {
      try person.addObserver(log, forKeyPath: "")
    }
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "address..street", type: "Resident")) {
      try Resident().addObserver(log, forKeyPath: "address..street")
    }
    #expect(throws: KeyValueCodingError.unknownKey(key: "nmae", type: "Person")) {
      try person.addObserver(log, forKeyPath: "nmae")
    }
    #expect(throws: KeyValueCodingError.unknownKey(key: "stret", type: "Address")) {
      try Resident().addObserver(log, forKeyPath: "address.stret")
    }
    #expect(throws: KeyValueCodingError.notAnObservableObject(keyPath: "name.count", key: "name", type: "Person")) {
      try person.addObserver(log, forKeyPath: "name.count")
    }
    #expect(person.observationInfo.isEmpty)
  }

  @Test("a chain notifies for a change of the leaf and for a replaced link, with the leaf's values")
  func chain() throws {
    let resident = Resident()
    let log = ChangeLog()
    try resident.addObserver(log, forKeyPath: "address.street", options: [.initial, .old, .new])
    #expect(log.count == 1)
    #expect(log.last?.change[.new] as? String == nil, "no address yet: the leaf reads as nil")

    let first = Address(street: "Oak")
    resident.address = first
    #expect(log.last?.change[.new] as? String == "Oak")
    first.street = "Elm"
    #expect(log.last?.change[.old] as? String == "Oak")
    #expect(log.last?.change[.new] as? String == "Elm")
    #expect(log.last?.keyPath == "address.street")

    resident.address = Address(street: "Pine")
    #expect(log.last?.change[.new] as? String == "Pine")
    let count = log.count
    first.street = "detached"
    #expect(log.count == count, "the replaced address is no longer observed")
  }

  @Test("a computed key notifies when what it reads changes")
  func computedKey() throws {
    let person = Person(name: "Ada", age: 36)
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "summary", options: [.old, .new])
    person.age = 37
    #expect(log.last?.change[.old] as? String == "Ada, 36")
    #expect(log.last?.change[.new] as? String == "Ada, 37")
    #expect(person.removeObserver(log, forKeyPath: "summary"))
    person.age = 38
    #expect(log.count == 1)
  }

  @Test("declared dependencies count for a key observed by string")
  func declaredDependencies() throws {
    let ledger = Ledger()
    let log = ChangeLog()
    try ledger.addObserver(log, forKeyPath: "status", options: .new)
    ledger.revision += 1
    #expect(log.count == 1)
  }

  @Test("setValue(_:forKey:) notifies a classic observer once")
  func keyValueCodingSet() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "name", options: .new)
    try person.setValue("Ada", forKey: "name")
    #expect(log.count == 1)
    #expect(log.last?.change[.new] as? String == "Ada")
  }

  @Test("a callback may add and remove observers, itself included")
  func mutationInsideCallback() throws {
    let person = Person()
    let log = ChangeLog()
    let late = ChangeLog()
    log.onChange = { _ in
      person.removeObserver(log, forKeyPath: "age")
      try? person.addObserver(late, forKeyPath: "age")
    }
    try person.addObserver(log, forKeyPath: "age")
    person.age = 1
    #expect(log.count == 1)
    #expect(late.count == 0, "added during the change: waits for the next one")
    person.age = 2
    #expect(log.count == 1)
    #expect(late.count == 1)
  }

  @Test("removing the observer inside its .initial call leaves no registration behind")
  func removeInsideInitial() throws {
    let person = Person()
    let log = ChangeLog()
    log.onChange = { _ in #expect(person.removeObserver(log, forKeyPath: "age")) }
    try person.addObserver(log, forKeyPath: "age", options: .initial)
    #expect(log.count == 1)
    #expect(person.observationInfo.isEmpty)
    person.age = 1
    #expect(log.count == 1)
  }

  @Test("the observed object going away ends its classic registrations silently")
  func observedObjectFreed() throws {
    let log = ChangeLog()
    var person: Person? = Person()
    try person!.addObserver(log, forKeyPath: "age")
    let diagnostics = capturingDiagnostics { person = nil }
    #expect(diagnostics.isEmpty)
    #expect(log.count == 0)
  }

  @Test("each change gets a dictionary of its own, also when the observer keeps them all")
  func keptDictionariesKeepTheirValues() throws {
    let person = Person(name: "Ada", age: 0)
    let log = ChangeLog()
    let newOnly = ChangeLog()
    try person.addObserver(log, forKeyPath: "age", options: [.old, .new])
    try person.addObserver(newOnly, forKeyPath: "age", options: .new)
    for age in 1...5 {
      person.age = age
    }
    // The registration reuses one dictionary between changes; every kept
    // dictionary must still hold the values of its own change.
    let calls = log.calls.elements
    #expect(calls.map { $0.change[.old] as? Int } == [0, 1, 2, 3, 4])
    #expect(calls.map { $0.change[.new] as? Int } == [1, 2, 3, 4, 5])
    #expect(calls.allSatisfy { $0.keys == ["kind", "new", "old"] && $0.kind == .setting })
    #expect(newOnly.calls.elements.map { $0.change[.new] as? Int } == [1, 2, 3, 4, 5])
    #expect(newOnly.calls.elements.allSatisfy { $0.keys == ["kind", "new"] })
  }

  @Test("a change dictionary does not keep the values alive after the change")
  func dictionaryReleasesValues() throws {
    let holder = Holder()
    let observer = CountingObserver()
    try holder.addObserver(observer, forKeyPath: "payload", options: [.old, .new])
    weak var first: ChangeValue?
    weak var second: ChangeValue?
    do {
      let one = ChangeValue()
      first = one
      holder.payload = one
      let two = ChangeValue()
      second = two
      holder.payload = two
    }
    #expect(first == nil, "the old value of the last change is not kept by the dictionary")
    holder.payload = nil
    #expect(second == nil, "nor is the old value of a change once delivered")
    #expect(observer.count.count == 3)
  }

  @Test("observationInfo names the classic observer and its context")
  func observationInfo() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "age", options: .new, context: contextA)
    let info = try #require(person.observationInfo.first)
    #expect(info.keyPath == "age")
    #expect(info.options == .new)
    #expect(info.observer.contains("ChangeLog"))
    #expect(info.observer.contains("classic observer"))
  }
}

@Suite("KeyValueChangeKey")
struct KeyValueChangeKeyTests {
  @Test("keys are equal by name and usable as dictionary keys, custom ones included")
  func identity() {
    #expect(KeyValueChangeKey(rawValue: "new") == .new)
    #expect(KeyValueChangeKey.new != .old)
    let keys: [KeyValueChangeKey] = [.kind, .new, .old, .indexes, .notificationIsPrior, .keyPath, .init(rawValue: "custom")]
    #expect(Set(keys).count == keys.count)
    let dictionary = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0.rawValue) })
    #expect(dictionary[KeyValueChangeKey(rawValue: "custom")] == "custom")
    #expect(dictionary[.notificationIsPrior] == "notificationIsPrior")
  }
}

/// A value with an identity, to see when it is freed.
private final class ChangeValue {}

@KeyValueObservable
private final class Holder {
  var payload: ChangeValue?
}
