/// One observation a ``KVOController`` made: what it observes and how to
/// end it.
///
/// Filed in the controller's list before the registration is made, so that
/// a block may unobserve it from its own `.initial` call; the token arrives
/// once the registration returns.
final class ControllerObservation: @unchecked Sendable {
  // @unchecked Sendable: `token`, `adapter` and `serial` are only touched
  // under the controller's lock; `observed` is read through the runtime's
  // atomic reference counts; the rest is immutable.

  /// The observed object's identity, compared before the reference to it
  /// is read (see ``refers(to:)``).
  let objectID: ObjectIdentifier

  /// The observed object, when the controller keeps it alive.
  let retainedObject: AnyObject?

  /// The observed object, not kept alive: an ``UnownedReference``, which,
  /// unlike `weak`, gives the object no side table that would slow every
  /// retain and release of it for the rest of its life.
  private let observed: UnownedReference<AnyObject>

  /// The observed object, while it lives.
  var object: AnyObject? { observed.object }

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
  /// kept alive here (registrations do not keep classic observers alive).
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
    observed = UnownedReference(object)
    self.key = key
    self.keyDescription = keyDescription
    self.options = options
    objectType = type(of: object)
  }

  /// Whether this observation is of `object`. Safe under a lock while the
  /// caller holds `object`: the reference is read only when the identities
  /// match, and then names that very object (or a freed one).
  ///
  /// An object unobserving itself from its own `deinit` is found although
  /// the reference already reads `nil` there.
  func refers(to object: AnyObject) -> Bool {
    guard objectID == ObjectIdentifier(object) else { return false }
    if let observed = self.object {
      return observed === object
    }
    return isDeinitializing(object)
  }
}
