import KeyValueObserving
import Testing

@Suite("observationInfo lists the live registrations")
struct ObservationInfoTests {
  @Test("each registration appears with its key, options and observer, in slot then registration order")
  func listsRegistrations() {
    let person = Person()
    let first = person.observe(\.age, options: [.old, .new]) { _, _ in }
    let second = person.observe(\.name, options: .initial) { _, _ in }
    let third = person.observe(\.age) { _, _ in }
    #expect(
      person.observationInfo == [
        KeyValueObservationInfo(
          keyPath: "name",
          options: .initial,
          observer: "closure (Person, KeyValueObservedChange<String>)"
        ),
        KeyValueObservationInfo(
          keyPath: "age",
          options: [.old, .new],
          observer: "closure (Person, KeyValueObservedChange<Int>)"
        ),
        KeyValueObservationInfo(keyPath: "age", options: [], observer: "closure (Person, KeyValueObservedChange<Int>)"),
      ]
    )
    first.invalidate()
    #expect(person.observationInfo.map(\.keyPath) == ["name", "age"])
    #expect(person.observationInfo.map(\.options) == [.initial, []])
    _ = (second, third)
  }

  @Test("its description reads as key, options and observer")
  func description() {
    let person = Person()
    let token = person.observe(\.nickname, options: [.new, .old, .prior]) { _, _ in }
    #expect(
      person.observationInfo.map(\.description) == [
        "nickname [.new, .old, .prior] → closure (Person, KeyValueObservedChange<Optional<String>>)"
      ]
    )
    _ = token
  }

  @Test("an observed object that nobody observes any more lists nothing")
  func emptyAfterRelease() {
    let person = Person()
    var tokens = (0..<100).map { _ in person.observe(\.age) { _, _ in } }
    #expect(person.observationInfo.count == 100)
    tokens.removeAll()
    #expect(person.observationInfo.isEmpty)
  }

  @Test("a derived observation lists its key path and, on each object it reads, one dependency entry")
  func derivedObservation() {
    let resident = Resident()
    let address = Address(street: "Main")
    resident.address = address
    let token = resident.observe(\.address?.street, options: .new) { _, _ in }
    // Swift names the key path's properties where it can (Apple platforms);
    // elsewhere the key path reads as the keys it depends on.
    let described = "\(\Resident.address?.street)"
    let key = described.contains("<computed") ? "derived(address, Address.street)" : described
    #expect(
      resident.observationInfo.map(\.description) == [
        "address [.prior] → dependency of \(key)",
        "\(key) [.new] → closure (Resident, KeyValueObservedChange<Optional<String>>)",
      ]
    )
    #expect(address.observationInfo.map(\.description) == ["street [.prior] → dependency of \(key)"])
    token.invalidate()
    #expect(resident.observationInfo.isEmpty)
    #expect(address.observationInfo.isEmpty)
  }
}
