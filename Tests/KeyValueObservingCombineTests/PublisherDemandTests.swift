import KeyValueObservingCombine
import Testing

@Suite("publisher(for:): demand is honoured; while it is zero only the newest value waits")
struct PublisherDemandTests {
  @Test("never more than asked for: one value asked, one sent; the next change waits")
  func neverMoreThanAsked() {
    let profile = Profile(age: 1)
    let probe = ProbeSubscriber<Int>(firstDemand: .max(1))
    profile.publisher(for: \.age).subscribe(probe)
    profile.age = 2
    #expect(probe.values == [1])
    probe.request(.max(1))
    #expect(probe.values == [1, 2])
  }

  @Test("a subscriber that asks for nothing yet is sent nothing, .initial included, until it asks")
  func initialWaitsForDemand() {
    let profile = Profile(name: "Ada")
    let probe = ProbeSubscriber<String>(firstDemand: .none)
    profile.publisher(for: \.name).subscribe(probe)
    #expect(probe.values.isEmpty)
    probe.request(.max(3))
    #expect(probe.values == ["Ada"])
  }

  @Test("changes made while demand is zero: only the newest is sent when demand comes, then changes flow again")
  func newestWaits() {
    let profile = Profile(age: 0)
    let probe = ProbeSubscriber<Int>(firstDemand: .max(1))
    profile.publisher(for: \.age).subscribe(probe)
    profile.age = 1
    profile.age = 2
    profile.age = 3
    #expect(probe.values == [0])
    probe.request(.max(2))
    #expect(probe.values == [0, 3], "the newest change, not the ones before it")
    profile.age = 4
    profile.age = 5
    #expect(probe.values == [0, 3, 4], "one more as asked; 5 waits")
    probe.request(.unlimited)
    profile.age = 6
    #expect(probe.values == [0, 3, 4, 5, 6])
  }

  @Test("the demand a subscriber returns from receive(_:) counts")
  func demandFromReceive() {
    let profile = Profile(age: 0)
    let probe = ProbeSubscriber<Int>(firstDemand: .max(1), demandPerValue: .max(1))
    profile.publisher(for: \.age).subscribe(probe)
    for age in 1...5 { profile.age = age }
    #expect(probe.values == [0, 1, 2, 3, 4, 5])
  }

  @Test("a request for no values asks for nothing, and does not trap")
  func zeroRequest() {
    let profile = Profile(age: 7)
    let probe = ProbeSubscriber<Int>(firstDemand: .none)
    profile.publisher(for: \.age).subscribe(probe)
    probe.request(.none)
    #expect(probe.values.isEmpty)
    probe.request(.max(1))
    #expect(probe.values == [7])
  }

  @Test("a write made inside receive(_:) is sent after it returns, in order, never into it")
  func reentrantWrite() {
    let profile = Profile(age: 0)
    let probe = ProbeSubscriber<Int>()
    probe.onValue = { age in
      if age < 3 { profile.age = age + 1 }
    }
    profile.publisher(for: \.age).subscribe(probe)
    #expect(probe.values == [0, 1, 2, 3])
    #expect(probe.overlappingCalls == 0)
  }

  @Test("a request made inside receive(_:) sends the waiting value after it returns")
  func requestInsideReceive() {
    let profile = Profile(age: 0)
    let probe = ProbeSubscriber<Int>(firstDemand: .max(1))
    profile.publisher(for: \.age).subscribe(probe)
    profile.age = 1  // waits: no demand
    probe.onValue = { age in
      if age == 1 { profile.age = 2 }
    }
    probe.request(.max(1))
    #expect(probe.values == [0, 1], "2 waits for demand")
    probe.onValue = { _ in probe.request(.max(1)) }
    profile.age = 3
    #expect(probe.values == [0, 1], "still no demand: 3 replaced 2")
    probe.request(.max(1))
    #expect(probe.values == [0, 1, 3])
    #expect(probe.overlappingCalls == 0)
  }
}
