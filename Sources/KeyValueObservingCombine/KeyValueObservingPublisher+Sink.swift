#if canImport(Combine)
  public import Combine
#elseif OpenCombine
  public import OpenCombine
#endif

extension KeyValueObservingPublisher {
  /// Calls `receiveValue` with every value the publisher sends, until the
  /// returned cancellable is cancelled or released: Combine's
  /// `sink(receiveValue:)`, with the same values, order and threads.
  ///
  /// Called directly on the publisher, `sink` subscribes without Combine's
  /// `Subscribers.Sink`: the subscription itself calls the closure, with
  /// unlimited demand, so a subscription costs about a quarter of an
  /// OpenCombine `sink` on a `@Published` property. After an operator
  /// (`map`, `removeDuplicates`, …) Combine's own `sink` runs, which sends
  /// the same values.
  ///
  /// With `.initial` the closure gets the current value before `sink`
  /// returns. Calls never overlap: a change on another thread during a call
  /// is sent after it. Cancelling removes the observation before `cancel()`
  /// returns; when the object is freed the closure is released, and nothing
  /// more is sent (with `.deallocation`, the
  /// publisher finishes then: see ``sink(receiveCompletion:receiveValue:)``).
  ///
  /// ```swift
  /// let cancellable = person.publisher(for: \.name).sink { print($0) }  // prints "" (.initial)
  /// person.name = "Ada"   // prints "Ada"
  /// cancellable.cancel()
  /// ```
  @inlinable
  public func sink(receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
    let subscription = KeyValueObservingSubscription.started(
      observing: keyPath, of: object, options: options, site: site, receiver: .closure(receiveValue))
    subscription.add(.unlimited)
    // A closure that captures only the subscription has it as its context:
    // no allocation, and no generic call into Combine.
    return AnyCancellable { subscription.cancel() }
  }

  /// ``sink(receiveValue:)`` with a completion handler, for code written
  /// against Combine's two-closure form. The publisher finishes only when
  /// it was made with `.deallocation` and the
  /// observed object is freed: `receiveCompletion` gets `.finished` then.
  ///
  /// ```swift
  /// let cancellable = person.publisher(for: \.age, options: [.new, .deallocation]).sink(
  ///     receiveCompletion: { _ in print("person freed") },
  ///     receiveValue: { print($0) }
  /// )
  /// ```
  @inlinable
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Never>) -> Void,
    receiveValue: @escaping (Value) -> Void
  ) -> AnyCancellable {
    let subscription = KeyValueObservingSubscription.started(
      observing: keyPath, of: object, options: options, site: site,
      receiver: .subscriber(ClosureDownstream(receiveValue: receiveValue, receiveCompletion: receiveCompletion)))
    subscription.add(.unlimited)
    return AnyCancellable { subscription.cancel() }
  }
}
