import Foundation
import KeyValueObserving

/// What else is under way while a test's change is made: how a change
/// nests must depend on its own thread's changes of its own object only.
enum ChangesOpenElsewhere: CaseIterable, Sendable {
  case nothing
  /// A will-change of another object open on this thread.
  case willChangeOfAnotherObjectHere
  /// A will-change of another object open on another thread.
  case willChangeOnAnotherThread

  func whileOpen(_ body: () -> Void) {
    let other = Person()
    let token = other.observe(\.age) { _, _ in }
    defer { token.invalidate() }
    switch self {
    case .nothing:
      body()
    case .willChangeOfAnotherObjectHere:
      other.willChangeValue(for: \.age)
      body()
      other.didChangeValue(for: \.age)
    case .willChangeOnAnotherThread:
      nonisolated(unsafe) let shared = other
      let opened = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let closed = DispatchSemaphore(value: 0)
      onNewThread {
        shared.willChangeValue(for: \.age)
        opened.signal()
        release.wait()
        shared.didChangeValue(for: \.age)
        closed.signal()
      }
      opened.wait()
      body()
      release.signal()
      closed.wait()
    }
  }
}
