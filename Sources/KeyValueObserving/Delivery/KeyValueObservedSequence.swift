/// What ``KeyValueObservable/changes(for:options:bufferingPolicy:fileID:line:)``
/// and ``KeyValueObservable/values(for:includingDeallocation:bufferingPolicy:fileID:line:)``
/// return: the changes or the values of one key path of one object, as an
/// `AsyncSequence` that ends when the object is freed.
///
/// ```swift
/// for await change in person.changes(for: \.age, options: [.old, .new]) {
///     print(change.oldValue!, "→", change.newValue!)
/// }
/// for await name in person.values(for: \.name) {
///     label.text = name  // the current name first, then each new one
/// }
/// ```
///
/// Its registration ends when the iterating task is cancelled, or when the
/// sequence and its iterators are dropped.
public struct KeyValueObservedSequence<Element: Sendable>: AsyncSequence, Sendable {
  public typealias Failure = Never

  @usableFromInline let stream: AsyncStream<Element>

  @usableFromInline
  init(_ stream: AsyncStream<Element>) {
    self.stream = stream
  }

  /// An iterator over the elements, from the first made after the call
  /// that made the sequence.
  ///
  /// ```swift
  /// var ages = person.changes(for: \.age).makeAsyncIterator()
  /// let next = await ages.next()
  /// ```
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator())
  }

  /// Gives the elements in the order the changes were made.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<Element>.AsyncIterator

    /// The next element, or `nil` once the object is freed or the task
    /// is cancelled.
    ///
    /// ```swift
    /// while let change = await iterator.next() { print(change) }
    /// ```
    public mutating func next() async -> Element? {
      await base.next()
    }

    /// The next element, resuming on `actor`.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      await base.next(isolation: actor)
    }
  }
}
