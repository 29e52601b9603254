import KeyValueObserving
import Testing

@Suite("Declared dependencies: KeyValueObservingCustomization.keyPathsAffectingValue")
struct DeclaredDependencyTests {
  @Test("a declared dependency notifies a key whose getter reads nothing observable")
  func declaredOnly() {
    let ledger = Ledger()
    let values = Recorder<String>()
    let token = ledger.observe(\.status, options: .new) { _, change in values.append(change.newValue!) }
    ledger.rawStatus = "closed"  // not observable: nothing yet
    #expect(values.elements == [])
    ledger.revision += 1
    #expect(values.elements == ["closed"])
    _ = token
  }

  @Test("dependencies of dependencies count: status ← revision ← edits")
  func twoLevels() {
    let ledger = Ledger()
    let count = Counter()
    let token = ledger.observe(\.status) { _, _ in count.increment() }
    ledger.edits += 1
    ledger.revision += 1
    #expect(count.count == 2)
    _ = token
  }

  @Test("declarations are followed transitively through computed keys that read nothing observable")
  func transitiveThroughComputedKeys() throws {
    let ledger = Ledger()
    let values = Recorder<Int>()
    let token = ledger.observe(\.tier2, options: .new) { _, change in values.append(change.newValue!) }
    ledger.tierCache = 4
    ledger.tierBase += 1
    #expect(values.elements == [8])
    let log = ChangeLog()
    try ledger.addObserver(log, forKeyPath: "tier2", options: .new)
    ledger.tierBase += 1
    #expect(values.elements == [8, 8])
    #expect(log.last?.change[.new] as? Int == 8)
    _ = token
  }

  @Test("a stored key with declared dependencies notifies for its own changes and for theirs")
  func storedKeyWithDependencies() {
    let ledger = Ledger()
    let values = Recorder<Change<Int>>()
    let token = ledger.observe(\.revision, options: [.old, .new]) { _, change in values.append(Change(change)) }
    ledger.revision = 5
    ledger.edits = 1
    #expect(values.elements == [Change(old: 0, new: 5), Change(old: 5, new: 5)])
    _ = token
  }

  @Test("a declared key path through another object follows that object and its replacement")
  func throughAnotherObject() {
    let ledger = Ledger()
    let first = Resident()
    ledger.owner = first
    let count = Counter()
    let token = ledger.observe(\.badge) { _, _ in count.increment() }
    first.name = "Ada"
    #expect(count.count == 1)
    let second = Resident()
    ledger.owner = second
    #expect(count.count == 2)
    first.name = "detached"
    #expect(count.count == 2)
    second.name = "Grace"
    #expect(count.count == 3)
    _ = token
  }

  @Test("a key both declared and found by tracking notifies once per change")
  func declaredAndInferredOnce() {
    let ledger = Ledger()
    let values = Recorder<String>()
    let token = ledger.observe(\.label, options: .new) { _, change in values.append(change.newValue!) }
    ledger.balance = 10
    #expect(values.elements == ["balance 10"])
    let registrationsOnBalance = allRegistrations(on: ledger).filter { $0.hasPrefix("balance ") }
    #expect(registrationsOnBalance.count == 1)
    #expect(ledger.observationInfo.map(\.dependencies) == [["balance"]])
    _ = token
  }

  @Test("mutually dependent keys terminate, and one change notifies each observed key once")
  func cycle() {
    let ledger = Ledger()
    let left = Recorder<Change<Int>>()
    let right = Recorder<Change<Int>>()
    let leftToken = ledger.observe(\.left, options: [.old, .new]) { _, change in left.append(Change(change)) }
    let rightToken = ledger.observe(\.right, options: [.old, .new]) { _, change in right.append(Change(change)) }
    ledger.left = 1
    #expect(left.elements == [Change(old: 0, new: 1)])
    #expect(right.elements == [Change(old: 0, new: 0)])
    ledger.right = 2
    #expect(left.count == 2)
    #expect(right.elements.last == Change(old: 0, new: 2))
    _ = (leftToken, rightToken)
  }

  @Test("the protocol's defaults: no declared dependencies, every key notifies by itself")
  func defaults() {
    #expect(Parcel.keyPathsAffectingValue(for: \Parcel.payload).isEmpty)
    #expect(Parcel.automaticallyNotifiesObservers(for: \Parcel.payload))
    let parcel = Parcel()
    let count = Counter()
    let token = parcel.observe(\.payload) { _, _ in count.increment() }
    parcel.payload = Payload(marker: Marker())
    #expect(count.count == 1)
    #expect(parcel.observationInfo.count == 1, "a stored key with no declared dependencies is observed directly")
    _ = token
  }
}

/// Conforms without implementing anything: the defaults apply.
extension Parcel: KeyValueObservingCustomization {}
