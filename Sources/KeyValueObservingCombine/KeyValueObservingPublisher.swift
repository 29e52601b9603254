#if canImport(Combine)
  public import Combine
#elseif OpenCombine
  public import OpenCombine
#endif
public import KeyValueObserving

/// A publisher of the values of one key path of an observable object:
/// Apple's `NSObject.KeyValueObservingPublisher`, for every
/// `@KeyValueObservable` class, on every platform.
///
/// Made by `publisher(for:options:)` on the object.
/// Each subscriber gets an observation of its own, made when it subscribes
/// and removed when it cancels. What each option sends is in
/// <doc:UsingThePublisher>.
///
/// The values sent are whole values of the key. Any key path that
/// `observe` accepts works — stored, computed, a chain — and a to-many
/// change (an array proxy's `append`, say) sends the whole collection.
///
/// **Demand.** A subscriber is never sent more values than it asked for.
/// While its demand is zero, only the newest value waits: when it asks
/// again, it gets the value of the latest change first (and not the ones
/// before it). Values are sent one call at a time, in the order of the
/// changes, on the thread of the change or of the request that allowed it.
///
/// **`sink`.** Called on the publisher itself, ``sink(receiveValue:)``
/// subscribes without Combine's `Subscribers.Sink` (same values, same
/// rules, a fraction of the cost); after an operator, Combine's runs.
///
/// **Ending.** Cancelling removes the observation before `cancel()`
/// returns. The subscription does not keep the object alive: when the
/// object is freed, the subscription ends and releases its subscriber —
/// silently, as Apple's never completes, or, made with
/// `.deallocation`, sending `.finished` first.
/// The publisher itself holds the object strongly, as Apple's does.
///
/// ```swift
/// let person = Person()
/// let cancellable = person.publisher(for: \.name)
///     .map { $0.uppercased() }
///     .sink { print($0) }          // prints "" at once (.initial)
/// person.name = "Ada"              // prints "ADA"
/// cancellable.cancel()
/// ```
public struct KeyValueObservingPublisher<Object: KeyValueObservable, Value>: Publisher {
  public typealias Output = Value
  public typealias Failure = Never

  /// The observed object.
  public let object: Object
  /// The observed key path.
  public let keyPath: KeyPath<Object, Value>
  /// What each subscription sends besides the value after each change.
  public let options: KeyValueObservingOptions

  /// Makes a subscription for a subscriber (behind its ``Downstream``). Made where the
  /// publisher is (its initialiser is inlinable), so that the subscription
  /// and the observation run as code specialised for `Object` and `Value`:
  /// a subscriber reaches ``receive(subscriber:)`` through Combine's own
  /// generic code, where nothing is specialised.
  @usableFromInline
  let subscribe: (
    Object, KeyPath<Object, Value>, KeyValueObservingOptions, RegistrationSite, Downstream<Value>
  ) -> any Subscription

  /// Where the publisher was made, which its subscriptions' registrations
  /// name (in a debug build of the library; no bytes in a release build).
  @usableFromInline
  let site: RegistrationSite

  /// A publisher of `keyPath` on `object`; the same as
  /// `object.publisher(for: keyPath, options: options)`.
  ///
  /// ```swift
  /// let names = KeyValueObservingPublisher(object: person, keyPath: \.name, options: .new)
  /// ```
  ///
  /// `fileID` and `line` say where the publisher is made, for
  /// `KeyValueObservationGraph` in a debug build;
  /// Swift passes them for you.
  @inlinable
  public init(
    object: Object,
    keyPath: KeyPath<Object, Value>,
    options: KeyValueObservingOptions,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.object = object
    self.keyPath = keyPath
    self.options = options
    self.site = RegistrationSite(fileID: fileID, line: line)
    subscribe = { object, keyPath, options, site, downstream in
      KeyValueObservingSubscription.started(
        observing: keyPath, of: object, options: options, site: site, receiver: .subscriber(downstream))
    }
  }

  public func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Value, Downstream.Failure == Never {
    let subscription = subscribe(object, keyPath, options, site, SubscriberDownstream(subscriber))
    subscriber.receive(subscription: subscription)
  }
}

extension KeyValueObservingPublisher: Equatable {
  /// Two publishers are equal when they observe the same key path of the
  /// same object (identity) with the same options.
  ///
  /// ```swift
  /// person.publisher(for: \.name) == person.publisher(for: \.name)  // true
  /// ```
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.object === rhs.object && lhs.keyPath == rhs.keyPath && lhs.options == rhs.options
  }
}
