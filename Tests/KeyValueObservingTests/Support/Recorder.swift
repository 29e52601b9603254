import Foundation
import Synchronization

/// Collects what callbacks receive, from any thread.
///
/// Guarded by `NSLock` rather than `Mutex`: the thread sanitizer does not
/// see `Mutex`'s contended path on Linux and would report its users.
final class Recorder<Element>: @unchecked Sendable where Element: Sendable {
  // @unchecked Sendable: `storage` is only touched under `lock`.
  private let lock = NSLock()
  private var storage: [Element] = []

  func append(_ element: Element) {
    lock.withLock { storage.append(element) }
  }

  var elements: [Element] {
    lock.withLock { storage }
  }

  var count: Int {
    lock.withLock { storage.count }
  }
}

/// A counter shared across threads.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  func increment(by amount: Int = 1) {
    value.add(amount, ordering: .relaxed)
  }

  var count: Int {
    value.load(ordering: .relaxed)
  }
}
