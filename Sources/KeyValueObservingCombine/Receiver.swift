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
  /// A `sink`'s closures: the values', and the completion's, if any.
  case closure((Value) -> Void, completion: ((Subscribers.Completion<Never>) -> Void)?)

  /// Sends `value`; returns the demand the receiver adds.
  @inlinable
  func receive(_ value: Value) -> Subscribers.Demand {
    switch self {
    case .subscriber(let downstream):
      return downstream.receive(value)
    case .closure(let receiveValue, _):
      receiveValue(value)
      return .none
    }
  }

  /// Tells the receiver the publisher finished.
  @inlinable
  func finish() {
    switch self {
    case .subscriber(let downstream): downstream.receiveFinished()
    case .closure(_, let completion): completion?(.finished)
    }
  }
}
