/// Lets a registration promise that no callback runs after it ends: each
/// callback passes the gate, and closing the gate waits until callbacks
/// already past it on other threads have returned — when that cannot
/// deadlock.
///
/// Closing from inside a callback (of this gate or any other, on this
/// thread) does not wait: the thread closing may be what another thread's
/// running callback is itself waiting for — two blocks unobserving each
/// other, each on its own thread. Then the gate only stops new callbacks;
/// one already running elsewhere finishes on its own. Closing from outside
/// every callback blocks the thread (it does not spin) until the running
/// callbacks have returned.
final class CallbackGate: Sendable {
  /// The number of callbacks past the gate, with ``closedBit`` once closed
  /// and ``waiterBit`` while a closer waits for the count to reach zero.
  private let state = AtomicInt(0)

  /// Where a waiting closer sleeps; made by the first closer that waits,
  /// retained here (its address) and released when the gate goes. Not
  /// private: a test checks that it goes.
  let latch = AtomicUInt(0)

  private static let closedBit = 1 << (Int.bitWidth - 2)
  private static let waiterBit = 1 << (Int.bitWidth - 3)
  private static let countMask = waiterBit - 1

  /// The callbacks running on this thread, innermost first.
  private static let running = ThreadLocal(.runningCallback)

  private struct Frame {
    let gate: ObjectIdentifier
    let outer: UnsafeMutablePointer<Frame>?
  }

  /// Whether the gate is closed.
  var isClosed: Bool { state.load(ordering: .acquiring) & Self.closedBit != 0 }

  /// Whether this thread is running a callback of any gate.
  static var isInsideCallback: Bool { running.value != nil }

  /// Runs `callback` unless the gate is closed; returns whether it ran.
  @discardableResult
  func pass(_ callback: () -> Void) -> Bool {
    let entered = state.add(1, ordering: .acquiringAndReleasing).newValue
    guard entered & Self.closedBit == 0 else {
      leave()
      return false
    }
    defer { leave() }
    var frame = Frame(gate: ObjectIdentifier(self), outer: Self.running.value?.assumingMemoryBound(to: Frame.self))
    withUnsafeMutablePointer(to: &frame) { pointer in
      Self.running.value = UnsafeMutableRawPointer(pointer)
      callback()
      Self.running.value = pointer.pointee.outer.map { UnsafeMutableRawPointer($0) }
    }
    return true
  }

  /// Counts a callback out, and wakes a waiting closer when it was the last.
  private func leave() {
    let left = state.subtract(1, ordering: .acquiringAndReleasing).newValue
    if left & Self.waiterBit != 0 && left & Self.countMask == 0 {
      latch.loadObject(Latch.self, ordering: .acquiring)?.takeUnretainedValue().open()
    }
  }

  /// Closes the gate: no callback passes it afterwards. Called from outside
  /// every callback, it returns once none is running on another thread;
  /// called from inside one, it returns at once. Idempotent.
  func close() {
    guard !Self.isInsideCallback else {
      state.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing)
      return
    }
    let before = state.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing).oldValue
    guard before & Self.countMask != 0 else { return }
    // The latch is published before the waiter bit, so a callback that
    // sees the bit finds it; one that left before the bit was set is not
    // counted in what the bit's operation returns.
    let made = Unmanaged.passRetained(Latch())
    let (stored, current) = latch.storeObjectIfNone(made, ordering: .acquiringAndReleasing)
    if !stored { made.release() }
    let latch = current.takeUnretainedValue()
    let after = state.bitwiseOr(Self.waiterBit, ordering: .acquiringAndReleasing).newValue
    guard after & Self.countMask != 0 else { return }
    latch.wait()
  }

  deinit {
    latch.loadObject(Latch.self, ordering: .acquiring)?.release()
  }
}
