import Synchronization

/// Lets a registration promise that no callback runs after it ends: each
/// callback passes the gate, and closing the gate waits until callbacks
/// already past it on other threads have returned.
///
/// A callback running on the closing thread itself (a block that ends its
/// own registration) is not waited for: it is on the stack below the close.
/// Closing never blocks on a lock; the wait is for the other threads'
/// callbacks to return.
final class CallbackGate: Sendable {
  /// The number of callbacks past the gate, with ``closedBit`` once closed.
  private let state = Atomic<Int>(0)

  private static let closedBit = 1 << (Int.bitWidth - 2)

  /// The callbacks running on this thread, innermost first, for closing
  /// from inside one.
  private static let running = ThreadLocal()

  private struct Frame {
    let gate: ObjectIdentifier
    let outer: UnsafeMutablePointer<Frame>?
  }

  /// Whether the gate is closed.
  var isClosed: Bool { state.load(ordering: .acquiring) & Self.closedBit != 0 }

  /// Runs `callback` unless the gate is closed; returns whether it ran.
  @discardableResult
  func pass(_ callback: () -> Void) -> Bool {
    let entered = state.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    guard entered & Self.closedBit == 0 else {
      state.wrappingSubtract(1, ordering: .releasing)
      return false
    }
    defer { state.wrappingSubtract(1, ordering: .releasing) }
    var frame = Frame(gate: ObjectIdentifier(self), outer: Self.running.value?.assumingMemoryBound(to: Frame.self))
    withUnsafeMutablePointer(to: &frame) { pointer in
      Self.running.value = UnsafeMutableRawPointer(pointer)
      callback()
      Self.running.value = pointer.pointee.outer.map { UnsafeMutableRawPointer($0) }
    }
    return true
  }

  /// Closes the gate: no callback passes it afterwards, and when this
  /// returns none is running on another thread. Idempotent.
  func close() {
    state.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing)
    let own = runningHere()
    var spins = 0
    while state.load(ordering: .acquiring) & ~Self.closedBit > own {
      spins += 1
      if spins > 64 { yieldThread() }
    }
  }

  /// How many callbacks of this gate are on this thread's stack.
  private func runningHere() -> Int {
    var count = 0
    var cursor = Self.running.value?.assumingMemoryBound(to: Frame.self)
    while let frame = cursor {
      if frame.pointee.gate == ObjectIdentifier(self) { count += 1 }
      cursor = frame.pointee.outer
    }
    return count
  }
}
