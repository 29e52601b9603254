@testable import KeyValueObservingCombine
import Testing

@Suite("DeliveryState: the subscription's rules, without threads")
struct DeliveryStateTests {
  @Test("a value with no demand waits, replaced by newer ones; demand takes the newest")
  func newestWaits() {
    var state = DeliveryState<Int>()
    #expect(state.arrive(1) == nil)
    #expect(state.arrive(2) == nil)
    #expect(state.request(.max(2)) == 2)
    #expect(state.delivered(adding: .none) == nil)
    #expect(state.isDelivering == false)
    #expect(state.arrive(3) == 3, "one demand was left")
    #expect(state.delivered(adding: .none) == nil)
    #expect(state.arrive(4) == nil)
    #expect(state.newest == 4)
  }

  @Test("while a thread delivers, values are handed over in order, each counted against demand")
  func handOver() {
    var state = DeliveryState<Int>()
    #expect(state.request(.max(3)) == nil)
    #expect(state.arrive(1) == 1)
    #expect(state.arrive(2) == nil)
    #expect(state.arrive(3) == nil)
    #expect(state.arrive(4) == nil, "no demand left: waits as the newest")
    #expect(state.delivered(adding: .none) == 2)
    #expect(state.delivered(adding: .max(1)) == 3)
    #expect(state.arrive(5) == nil, "demand went to 4, ahead of 5")
    #expect(state.delivered(adding: .none) == 4)
    #expect(state.delivered(adding: .none) == nil)
    #expect(state.newest == 5)
  }

  @Test("demand that arrives during a delivery takes the waiting value ahead of later ones")
  func demandDuringDelivery() {
    var state = DeliveryState<Int>()
    _ = state.request(.max(1))
    #expect(state.arrive(1) == 1)
    #expect(state.arrive(2) == nil)
    #expect(state.request(.max(2)) == nil, "the delivering thread sends it")
    #expect(state.arrive(3) == nil)
    #expect(state.delivered(adding: .none) == 2)
    #expect(state.delivered(adding: .none) == 3)
    #expect(state.delivered(adding: .none) == nil)
  }
}

extension DeliveryState {
  /// `arrive(_:replacing:)`, for the cases here that look only at what is
  /// sent; the replaced value is dropped with the call.
  mutating func arrive(_ value: Value) -> Value? {
    var replaced: Value? = nil
    return arrive(value, replacing: &replaced)
  }
}
