/// One observation a ``KVOController`` made: what it observes and how to
/// end it.
///
/// Filed in the controller's list before the registration is made, so that
/// a block may unobserve it from its own `.initial` call; the token arrives
/// once the registration returns.
final class ControllerObservation: @unchecked Sendable {
  // @unchecked Sendable: `token`, `adapter` and `serial` are only touched
  // under the controller's lock; `object` is a weak reference the runtime reads and
  // clears atomically; the rest is immutable.

  /// The observed object's identity, compared before the weak reference is
  /// read (see ``refers(to:)``).
  let objectID: ObjectIdentifier

  /// The observed object, when the controller keeps it alive.
  let retainedObject: AnyObject?

  /// The observed object, while it lives.
  weak var object: AnyObject?

  /// What makes two observations of one object the same: the key's name
  /// for a stored key (typed or by string), the key path otherwise.
  let key: AnyHashable

  /// The key path, for ``KVOController/debugDescription``; under the
  /// controller's lock.
  var keyDescription: String

  let options: KeyValueObservingOptions

  /// The observed object's type, for ``KVOController/debugDescription``.
  let objectType: Any.Type

  /// Every callback passes it; unobserving closes it.
  let gate = CallbackGate()

  /// The registration's token, once it is made.
  var token: KeyValueObservation?

  /// The classic observer that turns change dictionaries into block calls,
  /// kept alive here (registrations hold classic observers weakly).
  var adapter: AnyObject?

  /// Its place in the order the controller's observations were made; set
  /// when it is filed, under the controller's lock.
  var serial = 0

  init(
    object: AnyObject,
    retained: Bool,
    key: AnyHashable,
    keyDescription: String,
    options: KeyValueObservingOptions
  ) {
    objectID = ObjectIdentifier(object)
    retainedObject = retained ? object : nil
    self.object = object
    self.key = key
    self.keyDescription = keyDescription
    self.options = options
    objectType = type(of: object)
  }

  /// Whether this observation is of `object`. Safe under a lock while the
  /// caller holds `object`: the weak reference is read only when the
  /// identities match, and then names that very object (or a freed one).
  ///
  /// An object unobserving itself from its own `deinit` is found although
  /// the weak reference already reads `nil` there.
  func refers(to object: AnyObject) -> Bool {
    guard objectID == ObjectIdentifier(object) else { return false }
    if let observed = self.object {
      return observed === object
    }
    return isDeinitializing(object)
  }
}

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

/// A weak reference that several closures share.
final class WeakReference<Referent: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: a weak reference the runtime reads and clears
  // atomically.
  weak var referent: Referent?

  init(_ referent: Referent) {
    self.referent = referent
  }
}
