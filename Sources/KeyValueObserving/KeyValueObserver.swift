/// An object that receives changes as Objective-C KVO's observers do: one
/// method for every key it observes, with a change dictionary.
///
/// Register it with
/// ``KeyValueObservable/addObserver(_:forKeyPath:options:context:fileID:line:)``. The
/// observed object does not keep it alive: an observer freed while registered is
/// dropped and never messaged (Objective-C KVO would crash), and reported as
/// ``KeyValueObservingDiagnostic/Kind/observerFreedWhileRegistered``.
///
/// ```swift
/// final class NameLogger: KeyValueObserver {
///     func observeValue(
///         forKeyPath keyPath: String,
///         of object: AnyObject,
///         change: [KeyValueChangeKey: Any],
///         context: UnsafeMutableRawPointer?
///     ) {
///         print(keyPath, change[.old] ?? "-", "→", change[.new] ?? "-")
///     }
/// }
///
/// let logger = NameLogger()
/// try person.addObserver(logger, forKeyPath: "name", options: [.old, .new])
/// person.name = "Ada"  // prints "name  → Ada"
/// person.removeObserver(logger, forKeyPath: "name")
/// ```
public protocol KeyValueObserver: AnyObject {
  /// Receives one change of `keyPath` on `object`.
  ///
  /// `change` holds ``KeyValueChangeKey/kind`` always, and otherwise only
  /// what the registration's options asked for and the change has: see
  /// ``KeyValueChangeKey``. Called on the thread that made the change, with
  /// no lock held: it may add and remove observers and set values.
  ///
  /// ```swift
  /// func observeValue(forKeyPath keyPath: String, of object: AnyObject,
  ///                   change: [KeyValueChangeKey: Any], context: UnsafeMutableRawPointer?) {
  ///     guard context == &Self.nameContext else { return }
  ///     print(change[.new] as? String ?? "")
  /// }
  /// ```
  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  )
}
