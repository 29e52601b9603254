#if canImport(Combine)
  import Combine
#elseif OpenCombine
  import OpenCombine
#endif

/// Who a subscription sends values to: a Combine subscriber, or the
/// closure of a `sink` made on the publisher itself
/// (``KeyValueObservingPublisher/sink(receiveValue:)``), which asks for
/// every value and needs no object of its own.
///
/// Not API.
@usableFromInline
enum Receiver<Value> {
  case subscriber(Downstream<Value>)
  /// A one-closure `sink`'s closure. (A two-closure `sink` is a
  /// ``ClosureDownstream``: this case stays one closure wide, which every
  /// value's delivery copies.)
  case closure((Value) -> Void)

  /// Sends `value`; returns the demand the receiver adds.
  @inlinable
  func receive(_ value: Value) -> Subscribers.Demand {
    switch self {
    case .subscriber(let downstream):
      return downstream.receive(value)
    case .closure(let receiveValue):
      receiveValue(value)
      return .none
    }
  }

  /// Tells the receiver the publisher finished.
  @inlinable
  func finish() {
    switch self {
    case .subscriber(let downstream): downstream.receiveFinished()
    case .closure: break
    }
  }
}
