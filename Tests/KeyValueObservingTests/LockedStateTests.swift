import Dispatch
import Testing

@testable import KeyValueObserving

/// A lock and its count, shared between threads: only reached under the
/// lock.
final class LockedCount: @unchecked Sendable {
  let state = LockedState(0)
}

@Suite("LockedState: the lock word, taken from many threads")
struct LockedStateTests {
  @Test("4 threads × 20,000 increments under one lock: exactly 80,000")
  func mutualExclusion() {
    let count = LockedCount()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<20_000 {
        count.state.withLock { $0 += 1 }
      }
    }
    #expect(count.state.withLock { $0 } == 80_000)
  }

  #if !canImport(Darwin)
    @Test("a thread that finds the lock held marks it contended and waits; the unlock lets it in")
    func waiterIsWoken() {
      let count = LockedCount()
      let word = LockWord(count.state.line).word
      let done = DispatchSemaphore(value: 0)
      count.state.withLock { value in
        onNewThread {
          count.state.withLock { $0 += 1 }
          done.signal()
        }
        // The waiter spins, then marks the word before it parks.
        while word.load(ordering: .relaxed) != LockWord.contended {}
        value = 10
      }
      done.wait()
      #expect(count.state.withLock { $0 } == 11, "the waiter ran after the holder, under the lock")
      #expect(word.load(ordering: .relaxed) == LockWord.free)
    }
  #endif
}
