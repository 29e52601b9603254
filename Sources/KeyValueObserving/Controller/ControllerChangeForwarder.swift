/// A classic observer that hands each change dictionary to a closure: how
/// a controller's string-keyed forms reach their block or their observer.
final class ControllerChangeForwarder: KeyValueObserver, @unchecked Sendable {
  // @unchecked Sendable: immutable; the closure runs where changes happen.
  let forward: (AnyObject, String, [KeyValueChangeKey: Any], UnsafeMutableRawPointer?) -> Void

  init(_ forward: @escaping (AnyObject, String, [KeyValueChangeKey: Any], UnsafeMutableRawPointer?) -> Void) {
    self.forward = forward
  }

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    forward(object, keyPath, change, context)
  }
}
