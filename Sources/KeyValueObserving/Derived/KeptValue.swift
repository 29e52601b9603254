/// The value a derived observation read last, kept so that a change no
/// setter makes — an object on the path freed (see
/// ``KeyValueObservingOptions/deallocation``) — can still say what the
/// value was: by then the freed link reads `nil`, and the object that
/// held the value is gone.
///
/// A value that may be an object (see ``ObjectLifetime/mayHoldObject(_:)``)
/// is kept weakly, so that keeping it never keeps it alive: the value of
/// `\.item` is the object whose freeing the observation waits to hear.
/// Once that object is freed, no old value is kept.
///
/// Made only for an observation that asks for ``KeyValueObservingOptions/old``
/// and reads outside a did (a freed object, a coalesced run); every other
/// observation pays one `nil` check per change for it.
///
/// ```swift
/// let kept = KeptValue<String?>()
/// kept.keep("Ada")
/// kept.value  // Optional(Optional("Ada"))
/// ```
@usableFromInline
final class KeptValue<Value>: @unchecked Sendable {
  // @unchecked Sendable: what is kept is reached only under the lock.

  @usableFromInline
  struct Kept {
    /// The value, unless it is an object.
    @usableFromInline var value: Value?
    /// The value's object, when it is one.
    weak var object: AnyObject?
    var isObject = false

    init() {}
  }

  @usableFromInline let state = LockedState(Kept(), ownsCacheLines: false)
  /// Whether values may be objects, looked at when kept.
  @usableFromInline let mayHoldObjects = ObjectLifetime.mayHoldObject(Value.self)

  @usableFromInline init() {}

  /// Keeps `value` in place of the last one, which is released after the
  /// lock: its deinit may be any code. Inlinable: kept at every change of
  /// an observation that keeps values, specialised where the change path
  /// is.
  @inlinable @inline(__always)
  func keep(_ value: Value) {
    guard !mayHoldObjects else { return keepPossibleObject(value) }
    var replaced: Value? = value
    state.withLock { swap(&$0.value, &replaced) }
  }

  /// ``keep(_:)`` for a value that may be an object: an object is kept
  /// weakly.
  @usableFromInline
  func keepPossibleObject(_ value: Value) {
    var replaced = Kept()
    if let object = flattened(value), type(of: object) is AnyObject.Type {
      replaced.object = object as AnyObject
      replaced.isObject = true
    } else {
      replaced.value = value
    }
    state.withLock { swap(&$0, &replaced) }
  }

  /// The value kept last, if any: `nil` also when it was an object, freed
  /// since.
  @usableFromInline
  var value: Value? {
    let (value, object, isObject) = state.withLock { ($0.value, $0.object, $0.isObject) }
    return isObject ? object.flatMap { $0 as? Value } : value
  }
}
