/// A first-in, first-out queue of values: O(1) amortised per value, and
/// no allocation while it stays empty.
///
/// Values are appended to `back` and taken from `front`, which holds them
/// in reverse; when `front` runs out, `back` is reversed into its place.
/// Not API.
@usableFromInline
struct ValueQueue<Value> {
  @usableFromInline var front: [Value] = []
  @usableFromInline var back: [Value] = []

  @inlinable
  init() {}

  @inlinable
  mutating func append(_ value: Value) {
    back.append(value)
  }

  /// The oldest value, removed; `nil` when the queue is empty.
  @inlinable
  mutating func popFirst() -> Value? {
    if front.isEmpty {
      guard !back.isEmpty else { return nil }
      back.reverse()
      swap(&front, &back)
    }
    return front.popLast()
  }
}
