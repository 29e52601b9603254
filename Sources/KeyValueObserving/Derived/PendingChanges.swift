/// The changes of a derived value under way, one per thread: how deep each
/// thread's nested wills go, and the value before its outermost will, kept
/// for the matching did when the observer asked for old values.
///
/// Nested wills on one thread — a dependency changed while another
/// changes — only deepen the change; the outermost did notifies once. Few
/// threads change one value at once, so the changes are a list. Typed, so
/// that an old value is kept and handed back without boxing or a cast.
///
/// Not API.
///
/// ```swift
/// // pending.withLock { $0.open(on: thread, oldValue: 3) }  // true: outermost
/// // pending.withLock { $0.open(on: thread, oldValue: nil) } // false: nested
/// // pending.withLock { $0.close(on: thread) }  // (false, nil)
/// // pending.withLock { $0.close(on: thread) }  // (true, 3)
/// ```
@usableFromInline
struct PendingChanges<Value> {
  @usableFromInline
  struct Change {
    @usableFromInline let thread: UInt
    @usableFromInline var depth: Int
    @usableFromInline var oldValue: Value?

    @inlinable
    init(thread: UInt, oldValue: Value?) {
      self.thread = thread
      self.depth = 1
      self.oldValue = oldValue
    }
  }

  @usableFromInline var changes: [Change] = []

  @inlinable
  init() {}

  /// Opens `thread`'s change, or deepens it; `true` for the outermost, whose
  /// `oldValue` is kept for its did.
  @inlinable
  mutating func open(on thread: UInt, oldValue: Value?) -> Bool {
    if let index = changes.firstIndex(where: { $0.thread == thread }) {
      changes[index].depth += 1
      return false
    }
    changes.append(Change(thread: thread, oldValue: oldValue))
    return true
  }

  /// Closes one level of `thread`'s change: `finished` for the outermost,
  /// with the old value kept at its will. A did with no will (an
  /// observation that started in between) finishes without an old value.
  @inlinable
  mutating func close(on thread: UInt) -> (finished: Bool, oldValue: Value?) {
    guard let index = changes.firstIndex(where: { $0.thread == thread }) else { return (true, nil) }
    changes[index].depth -= 1
    guard changes[index].depth == 0 else { return (false, nil) }
    return (true, changes.remove(at: index).oldValue)
  }
}
