import KeyValueObserving
import Observation
import Synchronization

// Models and helpers that tests in several files use, kept apart from any
// one test file so that a subset of the files (Checks/Optimised) compiles.

/// A class shared across tasks and threads: observable and Sendable because
/// its one property is written by one thread at a time in these tests.
@KeyValueObservable
final class Gauge: @unchecked Sendable {
  // @unchecked Sendable: each test writes `level` from one thread only.
  var level = 0
}

/// Four properties, so that four threads can write without racing on the
/// same storage (the library synchronises registrations, not user data).
@KeyValueObservable
final class Counters: @unchecked Sendable {
  var a = 0
  var b = 0
  var c = 0
  var d = 0
}

extension Counters {
  func set(_ index: Int, _ value: Int) {
    switch index {
    case 0: a = value
    case 1: b = value
    case 2: c = value
    default: d = value
    }
  }

  /// A computed key that depends on all four.
  var sum: Int { a + b + c + d }
}

/// A model that declares `Observable`: tracked by Swift Observation and
/// observable key by key.
@KeyValueObservable
class Sheet: Observable, @unchecked Sendable {
  var title = ""
  var count = 0
  var rows: [Int] = []
  var tags: Set<String> = []
  @KeyValueIgnored var cache = 0
  var summary: String { "\(title) (\(count))" }
}

/// Counts the `onChange` calls of Observation trackings, from any thread.
final class ChangeCount: Sendable {
  private let value = Atomic<Int>(0)
  func increment() { value.add(1, ordering: .relaxed) }
  var count: Int { value.load(ordering: .relaxed) }
}

/// Holds a token that its own callback can reach.
final class TokenHolder: @unchecked Sendable {
  var token: KeyValueObservation?
}
