import Synchronization

/// Collects what callbacks receive, from any thread.
final class Recorder<Element>: Sendable where Element: Sendable {
  private let storage = Mutex<[Element]>([])

  func append(_ element: Element) {
    storage.withLock { $0.append(element) }
  }

  var elements: [Element] {
    storage.withLock { $0 }
  }

  var count: Int {
    storage.withLock { $0.count }
  }
}

/// A counter shared across threads.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  func increment() {
    value.add(1, ordering: .relaxed)
  }

  var count: Int {
    value.load(ordering: .relaxed)
  }
}
