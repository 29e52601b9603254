#if canImport(Combine)
  import Combine
#elseif OpenCombine
  import OpenCombine
#endif

/// A two-closure `sink`'s closures as a ``Downstream``: the values', and
/// the completion's, which the publisher calls when it finishes (made
/// with `.deallocation`, when the observed object is freed).
///
/// Not API.
///
/// ```swift
/// let downstream = ClosureDownstream<Int>(receiveValue: { print($0) }, receiveCompletion: { _ in print("done") })
/// ```
@usableFromInline
final class ClosureDownstream<Value>: Downstream<Value> {
  @usableFromInline let receiveValue: (Value) -> Void
  @usableFromInline let receiveCompletion: (Subscribers.Completion<Never>) -> Void

  @usableFromInline
  init(receiveValue: @escaping (Value) -> Void, receiveCompletion: @escaping (Subscribers.Completion<Never>) -> Void) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }

  @usableFromInline
  override func receive(_ value: Value) -> Subscribers.Demand {
    receiveValue(value)
    return .none
  }

  @usableFromInline
  override func receiveFinished() {
    receiveCompletion(.finished)
  }
}
