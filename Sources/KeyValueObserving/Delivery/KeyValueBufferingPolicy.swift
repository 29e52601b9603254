/// How many elements of a ``KeyValueObservedSequence`` wait for a consumer
/// that falls behind.
///
/// ```swift
/// for await value in model.values(for: \.progress, bufferingPolicy: .bufferingNewest(1)) {
///     bar.value = value  // a slow consumer sees the latest progress, not each step
/// }
/// ```
public enum KeyValueBufferingPolicy: Sendable, Hashable {
  /// Every element waits, however many there are.
  case unbounded

  /// At most `limit` elements wait; an element past them is dropped.
  case bufferingOldest(_ limit: Int)

  /// At most `limit` elements wait; the oldest is dropped to make room.
  case bufferingNewest(_ limit: Int)

  /// The same policy, as `AsyncStream` spells it.
  @usableFromInline
  func streamPolicy<Element>(of element: Element.Type) -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .unbounded: .unbounded
    case .bufferingOldest(let limit): .bufferingOldest(limit)
    case .bufferingNewest(let limit): .bufferingNewest(limit)
    }
  }
}
