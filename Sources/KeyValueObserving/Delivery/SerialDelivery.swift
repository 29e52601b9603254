/// Hands changes to a callback somewhere else — a dispatch queue, the main
/// actor — in the order they happened, one batch at a time, and stops for
/// good once cancelled.
///
/// Changes are appended under a lock; the first append after the buffer
/// drained asks `schedule` for one drain, so at most one drain runs at a
/// time even on a concurrent queue, and nothing is reordered or delivered
/// twice. ``cancel()`` (the registration ended) makes every later check
/// fail: what is still buffered is dropped.
final class SerialDelivery<Item>: @unchecked Sendable {
  // @unchecked Sendable: the queue is behind its lock; `cancelled` is
  // atomic. Items cross to the drain's thread, which is the point of the
  // class; the public API that makes one requires its values to be Sendable.
  private let queue = LockedState(Queue())
  private let cancelled = AtomicFlag(false)

  private struct Queue {
    var buffer: [Item] = []
    /// Whether a drain was asked for and has not found the buffer empty yet.
    var isScheduled = false
  }

  /// Asks for ``drain(_:)`` to run, somewhere.
  private let schedule: @Sendable (SerialDelivery<Item>) -> Void

  init(schedule: @escaping @Sendable (SerialDelivery<Item>) -> Void) {
    self.schedule = schedule
  }

  /// Whether the registration ended.
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Stops delivery: nothing buffered or appended later is delivered.
  func cancel() {
    cancelled.store(true, ordering: .releasing)
    let dropped = queue.withLock { queue -> [Item] in
      defer { queue.buffer = [] }
      return queue.buffer
    }
    // Released after the lock: an item may hold the last reference to an
    // object.
    _ = dropped
  }

  /// Buffers `item` and, when no drain is pending, schedules one.
  func append(_ item: Item) {
    guard !isCancelled else { return }
    let needsDrain = queue.withLock { queue -> Bool in
      queue.buffer.append(item)
      defer { queue.isScheduled = true }
      return !queue.isScheduled
    }
    if needsDrain {
      schedule(self)
    }
  }

  /// Delivers what is buffered, in order, batch after batch, until the
  /// buffer is empty or delivery is cancelled. Run by what `schedule`
  /// scheduled.
  func drain(_ deliver: (Item) -> Void) {
    while true {
      let batch = queue.withLock { queue -> [Item] in
        if queue.buffer.isEmpty {
          queue.isScheduled = false
          return []
        }
        defer { queue.buffer = [] }
        return queue.buffer
      }
      guard !batch.isEmpty else { return }
      for item in batch {
        guard !isCancelled else { return }
        deliver(item)
      }
    }
  }
}
