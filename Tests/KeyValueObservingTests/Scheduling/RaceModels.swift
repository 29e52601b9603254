import Foundation
import KeyValueObserving
import Testing

// The models and helpers the scheduled scenarios and the racing windows
// share. Nothing here depends on the schedule explorer, so that the
// racing windows also run in release (Checks/Optimised links this file).

/// An object of the scenarios: a few keys and a link to another.
@KeyValueObservable
final class Junction {
  var a = 0
  var x = 0
  var link: Junction?
  var sum: Int { a + x }
}

/// A reference handed to one thread, which takes it (and so lets go of
/// it when done).
final class HandedReference<Object: AnyObject>: @unchecked Sendable {
  private var object: Object?
  init(_ object: Object) { self.object = object }
  func take() -> Object? {
    defer { object = nil }
    return object
  }
}

/// The calling thread, as the scenarios tell threads apart.
func currentThread() -> UInt {
  UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(Unmanaged.passUnretained(Thread.current).toOpaque())))
}

/// A value handed to another thread that the baton, not the type system,
/// keeps from being touched by two at once.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// An object with a `weak` link, for the freed-object scenarios.
@KeyValueObservable
final class WeakJunction {
  var x = 0
  weak var link: Junction?
}

/// The observations whose handler a change reaches through a derived
/// observation, each over fresh objects.
enum DerivedKind: String, CaseIterable, CustomTestStringConvertible {
  case chain
  case computedKey = "computed key"
  case trackedClosure = "tracked closure"

  var testDescription: String { rawValue }

  /// A token of this kind whose handler calls `heard`, and a write for
  /// each of two threads: each thread's re-read reads what the other
  /// writes, the model's own race, hidden from the thread sanitizer so
  /// that only the library's state is judged.
  func make(heard: @escaping () -> Void) -> (token: KeyValueObservation, writes: [() -> Void]) {
    let root = Junction()
    let link = Junction()
    root.link = link
    switch self {
    case .chain:
      // The second write is an equal assignment of the first link: it
      // still notifies.
      let token = root.observe(\.link?.a) { _, _ in heard() }
      return (token, [{ ignoringDataRaces { link.a = 1 } }, { ignoringDataRaces { root.link = link } }])
    case .computedKey:
      let token = root.observe(\.sum) { _, _ in heard() }
      return (token, [{ ignoringDataRaces { root.a = 1 } }, { ignoringDataRaces { root.x = 1 } }])
    case .trackedClosure:
      let token = withKeyValueObservation {
        _ = root.a
        _ = root.x
        heard()
      }
      return (token, [{ ignoringDataRaces { root.a = 1 } }, { ignoringDataRaces { root.x = 1 } }])
    }
  }
}
