public import Synchronization

/// One live registration: what it asked for and whether it may still be
/// called. Held by the registrar's slot list and by the token that owns it.
///
/// Not API: the macro-generated setters reach it through
/// ``_KeyValueObservationStorage``.
///
/// ```swift
/// // Made by `observe`; users never create one.
/// ```
public class _KeyValueRegistration: @unchecked Sendable {
  // @unchecked Sendable: `options` and `slot` are immutable, `isActive` is
  // atomic, and `indexInSlot` is read and written only under the owning
  // storage's lock.

  /// What the registration asked for.
  @usableFromInline let options: KeyValueObservingOptions

  /// The key it observes.
  @usableFromInline let slot: Int

  /// Its position in the slot's list; owned by the storage's lock.
  @exclusivity(unchecked) nonisolated(unsafe) var indexInSlot = -1

  /// Cleared once, when the registration is removed; checked before every call.
  @usableFromInline let isActive = Atomic<Bool>(true)

  /// Whether the registration may still be called.
  @inlinable
  var isLive: Bool { isActive.load(ordering: .acquiring) }

  init(options: KeyValueObservingOptions, slot: Int) {
    self.options = options
    self.slot = slot
  }

  /// Who receives the notifications, for ``KeyValueObservable/observationInfo``.
  var observerDescription: String { "registration" }

  /// Drops the callback and what it captured. Called once the observed
  /// object has deinitialised, when no delivery can be under way: every
  /// delivery runs inside a setter or `observe` call that holds the object.
  func releaseCallback() {}
}

/// A registration that receives values of the observed property's own type.
///
/// Not API.
///
/// ```swift
/// // Made by `observe`; users never create one.
/// ```
public class _KeyValueValueRegistration<Value>: _KeyValueRegistration, @unchecked Sendable {
  /// Hands one change to the observer. `object` is the observed object.
  @usableFromInline func deliver(_ change: KeyValueObservedChange<Value>, from object: AnyObject) {
    preconditionFailure("subclass responsibility")
  }
}

/// A registration made by ``KeyValueObservable/observe(_:options:changeHandler:)``:
/// a closure that receives the observed object with its static type.
@usableFromInline
final class ClosureRegistration<Object: AnyObject, Value>: _KeyValueValueRegistration<Value>,
  @unchecked Sendable
{
  // @unchecked Sendable: the handler is called only on the thread that made a
  // change, which is where the caller of `observe` said changes would happen;
  // it is cleared only by `releaseCallback()`, which no delivery overlaps.
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var handler:
    ((Object, KeyValueObservedChange<Value>) -> Void)?

  init(
    options: KeyValueObservingOptions,
    slot: Int,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    self.handler = handler
    super.init(options: options, slot: slot)
  }

  /// Calls the handler with the object's own type: the direct path.
  @inlinable
  func call(_ object: Object, _ change: KeyValueObservedChange<Value>) {
    handler?(object, change)
  }

  override func deliver(_ change: KeyValueObservedChange<Value>, from object: AnyObject) {
    // The slot lists of an object hold only registrations made on that
    // object, so it is an `Object`.
    handler?(unsafeDowncast(object, to: Object.self), change)
  }

  override func releaseCallback() {
    handler = nil
  }

  override var observerDescription: String {
    "closure (\(Object.self), KeyValueObservedChange<\(Value.self)>)"
  }
}
