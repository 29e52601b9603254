/// What the unavailable `publisher(for:options:)` of the core returns (see
/// KeyValueObservable+PublisherHint.swift): a type with the operators
/// people write after it, so that `publisher(for: \.volume).sink { … }`,
/// `.map { … }`, `.receive(on:)` and `.assign(to:on:)` type-check and the
/// one error left is the unavailable call's, which names the product to
/// add — not "value of type 'Never' has no member 'sink'". Nothing here is
/// ever called: the only way to a value of this type is the unavailable
/// method, which does not compile.
///
/// ```swift
/// import KeyValueObserving   // KeyValueObservingCombine forgotten
/// let c = person.publisher(for: \.age).map { $0 / 10 }.removeDuplicates().sink { print($0) }
/// // error: 'publisher(for:options:)' is unavailable: publisher(for:) is in KeyValueObservingCombine…
/// ```
public struct _KeyValuePublisherHint<Output> {
  init() {}

  public func sink(receiveValue: @escaping (Output) -> Void) -> _KeyValuePublisherHintCancellable {
    _KeyValuePublisherHintCancellable()
  }

  public func sink(
    receiveCompletion: @escaping (_KeyValuePublisherHintCompletion) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> _KeyValuePublisherHintCancellable {
    _KeyValuePublisherHintCancellable()
  }

  public func assign<Root>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>,
    on object: Root
  ) -> _KeyValuePublisherHintCancellable {
    _KeyValuePublisherHintCancellable()
  }

  /// `assign(to: &$property)`, whatever the published property's publisher is.
  public func assign<Published>(to published: inout Published) {}

  public func map<Transformed>(_ transform: @escaping (Output) -> Transformed) -> _KeyValuePublisherHint<Transformed> {
    _KeyValuePublisherHint<Transformed>()
  }

  public func map<Transformed>(_ keyPath: KeyPath<Output, Transformed>) -> _KeyValuePublisherHint<Transformed> {
    _KeyValuePublisherHint<Transformed>()
  }

  public func compactMap<Transformed>(
    _ transform: @escaping (Output) -> Transformed?
  ) -> _KeyValuePublisherHint<Transformed> {
    _KeyValuePublisherHint<Transformed>()
  }

  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Self { self }

  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Self { self }

  public func dropFirst(_ count: Int = 1) -> Self { self }

  public func prefix(_ maxLength: Int) -> Self { self }

  public func first() -> Self { self }

  public func scan<Result>(
    _ initialResult: Result,
    _ nextPartialResult: @escaping (Result, Output) -> Result
  ) -> _KeyValuePublisherHint<Result> {
    _KeyValuePublisherHint<Result>()
  }

  public func receive<Scheduler>(on scheduler: Scheduler, options: Any? = nil) -> Self { self }

  public func subscribe<Scheduler>(on scheduler: Scheduler, options: Any? = nil) -> Self { self }

  public func debounce<Interval, Scheduler>(for dueTime: Interval, scheduler: Scheduler, options: Any? = nil) -> Self {
    self
  }

  public func throttle<Interval, Scheduler>(for interval: Interval, scheduler: Scheduler, latest: Bool) -> Self {
    self
  }

  public func handleEvents(
    receiveSubscription: ((Any) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((_KeyValuePublisherHintCompletion) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Any) -> Void)? = nil
  ) -> Self {
    self
  }

  public func combineLatest<Other>(_ other: Other) -> _KeyValuePublisherHint<(Output, Any)> {
    _KeyValuePublisherHint<(Output, Any)>()
  }

  public func merge<Other>(with other: Other) -> Self { self }

  public func eraseToAnyPublisher() -> Self { self }

  public func print(_ prefix: String = "") -> Self { self }

  /// `for await value in publisher.values`.
  public var values: AsyncStream<Output> { AsyncStream { $0.finish() } }
}

extension _KeyValuePublisherHint where Output: Equatable {
  public func removeDuplicates() -> Self { self }
}

/// What a `sink` on ``_KeyValuePublisherHint`` returns.
public struct _KeyValuePublisherHintCancellable {
  init() {}

  public func cancel() {}

  /// `store(in: &cancellables)`, whatever the collection is.
  public func store<Collection>(in collection: inout Collection) {}
}

/// The completion a `sink(receiveCompletion:receiveValue:)` on
/// ``_KeyValuePublisherHint`` is handed: `.finished`, as a switch over
/// Combine's completion spells it.
public enum _KeyValuePublisherHintCompletion {
  case finished
  case failure(Never)
}
