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

  /// `cancellable = publisher.sink { … }` into a variable of Combine's
  /// `AnyCancellable?`: the type the context asks for.
  public func sink<Cancellable>(receiveValue: @escaping (Output) -> Void) -> Cancellable {
    fatalError("unavailable")
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

  public func debounce<Scheduler>(
    for dueTime: _KeyValuePublisherHintInterval,
    scheduler: Scheduler,
    options: Any? = nil
  ) -> Self {
    self
  }

  public func throttle<Scheduler>(for interval: _KeyValuePublisherHintInterval, scheduler: Scheduler, latest: Bool) -> Self {
    self
  }

  public func delay<Scheduler>(for interval: _KeyValuePublisherHintInterval, scheduler: Scheduler, options: Any? = nil) -> Self {
    self
  }

  public func flatMap<Other>(_ transform: @escaping (Output) -> Other) -> _KeyValuePublisherHint<Any> {
    _KeyValuePublisherHint<Any>()
  }

  public func tryMap<Transformed>(_ transform: @escaping (Output) throws -> Transformed) -> _KeyValuePublisherHint<Transformed> {
    _KeyValuePublisherHint<Transformed>()
  }

  public func collect() -> _KeyValuePublisherHint<[Output]> { _KeyValuePublisherHint<[Output]>() }

  public func collect(_ count: Int) -> _KeyValuePublisherHint<[Output]> { _KeyValuePublisherHint<[Output]>() }

  public func prepend(_ elements: Output...) -> Self { self }

  public func append(_ elements: Output...) -> Self { self }

  public func share() -> Self { self }

  public func replaceError(with output: Output) -> Self { self }

  public func setFailureType<Failure>(to failureType: Failure.Type) -> Self { self }

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

  /// `let p: AnyPublisher<Int, Never> = publisher.eraseToAnyPublisher()`:
  /// the type the context asks for.
  public func eraseToAnyPublisher<Erased>() -> Erased { fatalError("unavailable") }

  public func print(_ prefix: String = "") -> Self { self }

  /// `for await value in publisher.values`.
  public var values: AsyncStream<Output> { AsyncStream { $0.finish() } }
}

extension _KeyValuePublisherHint where Output: Equatable {
  public func removeDuplicates() -> Self { self }
}

extension _KeyValuePublisherHint {
  public func replaceNil<Wrapped>(with output: Wrapped) -> _KeyValuePublisherHint<Wrapped> where Output == Wrapped? {
    _KeyValuePublisherHint<Wrapped>()
  }
}

/// A scheduler's interval as the operators of ``_KeyValuePublisherHint``
/// take it: `.milliseconds(300)`, `.seconds(1)`, `0.3`.
public struct _KeyValuePublisherHintInterval: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
  public init(floatLiteral value: Double) {}
  public init(integerLiteral value: Int) {}
  init() {}

  public static var zero: Self { Self() }
  public static func seconds(_ value: Int) -> Self { Self() }
  public static func seconds(_ value: Double) -> Self { Self() }
  public static func milliseconds(_ value: Int) -> Self { Self() }
  public static func microseconds(_ value: Int) -> Self { Self() }
  public static func nanoseconds(_ value: Int) -> Self { Self() }
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
