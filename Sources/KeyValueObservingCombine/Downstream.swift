#if canImport(Combine)
  import Combine
#elseif OpenCombine
  import OpenCombine
#endif

/// A subscription's subscriber, seen through the one call a change needs.
///
/// A class rather than a closure: the subscription runs as code specialised
/// for its value type, and a closure made in Combine's generic code would
/// have to be wrapped in a fresh reabstraction thunk — one allocation — each
/// time specialised code loaded it to call it. A class method is dispatched
/// through the vtable, which adapts the value's representation for free.
/// ``SubscriberDownstream`` is the one subclass.
///
/// Not API.
@usableFromInline
class Downstream<Value> {
  @usableFromInline
  init() {}

  /// Sends `value` to the subscriber; returns the demand it adds.
  @usableFromInline
  func receive(_ value: Value) -> Subscribers.Demand {
    .none
  }

  /// Tells the subscriber the publisher finished.
  @usableFromInline
  func receiveFinished() {}
}
