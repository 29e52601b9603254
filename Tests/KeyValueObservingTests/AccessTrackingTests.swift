import Testing

@testable import KeyValueObserving

@Suite("Getters report reads to access tracking")
struct AccessTrackingTests {
  @Test("a read inside a tracking scope is recorded with its object and slot")
  func recordsReads() {
    let person = Person()
    let other = Person()
    let (value, accesses) = withAccessTracking {
      person.age + other.age + person.name.count
    }
    #expect(value == 0)
    #expect(accesses.map(\.slot) == [1, 1, 0])
    #expect(
      accesses.map { ObjectIdentifier($0.storage) }
        == [person, other, person].map { ObjectIdentifier($0._$kvoStorage()) }
    )
  }

  @Test("a computed property's reads are the stored properties behind it; ignored ones are not reported")
  func computedAndIgnored() {
    let person = Person()
    let (_, accesses) = withAccessTracking {
      _ = person.summary
      _ = person.cache
      _ = person.id
    }
    #expect(accesses.map(\.slot) == [0, 1])
  }

  @Test("subclass properties report their own slots")
  func subclassSlots() {
    let truck = TowTruck()
    let (_, accesses) = withAccessTracking {
      _ = truck.towing
      _ = truck.wheels
      _ = truck.payload
    }
    #expect(accesses.map(\.slot) == [3, 0, 2])
  }

  @Test("a nested scope's reads are its own: the outer scope does not see them")
  func nestedScopes() {
    let person = Person()
    let (inner, outer) = withAccessTracking {
      _ = person.name
      let (_, inner) = withAccessTracking { _ = person.age }
      _ = person.nickname
      return inner
    }
    #expect(inner.map(\.slot) == [1])
    #expect(outer.map(\.slot) == [0, 2])
  }

  @Test("reads outside any scope are not recorded")
  func outsideScope() {
    let person = Person()
    _ = person.age
    let (_, accesses) = withAccessTracking { 1 }
    #expect(accesses.isEmpty)
  }
}
