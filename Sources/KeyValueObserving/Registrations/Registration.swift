/// One live registration: what it asked for and whether it may still be
/// called.
///
/// The registrar's storage is its only owner: the slot list holds it from
/// `add` to `remove` (or until the observed object deinitialises), and a
/// notification under way keeps it alive through its snapshot of the list. The
/// token refers to it without owning it, so removing it releases the
/// callback and everything the callback captured.
///
/// Not API: the macro-generated setters reach it through
/// ``_KeyValueObservationStorage``.
public class _KeyValueRegistration: @unchecked Sendable {
  // @unchecked Sendable: everything is immutable except `isActive`, which is
  // atomic, `indexInSlot`, which only the owning storage's lock guards, and
  // `site`, written before the registration is listed.

  /// The options it asked for (the low four bits) and how a change reaches
  /// it (the two above): one byte, so that with the slot and the position
  /// the registration's own fields take eight bytes, and a closure's
  /// registration is a 40-byte allocation — 48 bytes of heap, not 64.
  @usableFromInline let bits: UInt8

  /// Cleared once, when the registration is removed; checked before every call.
  @usableFromInline let isActive = AtomicFlag(true)

  /// The key it observes.
  @usableFromInline let slotNumber: Int16

  /// Its position in the slot's list; owned by the storage's lock.
  @exclusivity(unchecked) nonisolated(unsafe) var indexInSlot: Int32 = -1

  /// Where it was made, in a debug build of the library (no bytes in a
  /// release build); written once, before it is listed.
  @usableFromInline final var site = RegistrationSite(fileID: "", line: 0)

  /// What the registration asked for.
  @inlinable
  final var options: KeyValueObservingOptions {
    KeyValueObservingOptions(rawValue: Int(bits & 0x0F))
  }

  /// How a change reaches it.
  @inlinable
  final var receiver: _KeyValueReceiver {
    // The enum's cases are stored as their raw values, 0 to 3.
    unsafeBitCast(bits >> 4, to: _KeyValueReceiver.self)
  }

  /// The key it observes.
  @inlinable
  final var slot: Int { Int(slotNumber) }

  /// Whether the registration may still be called.
  @inlinable
  final var isLive: Bool { isActive.load(ordering: .acquiring) }

  /// The slot number of a registration filed under a key path rather than a
  /// slot (the anchor of a derived observation).
  static let keyPathSlot = -1

  @usableFromInline
  init(options: KeyValueObservingOptions, slot: Int, receiver: _KeyValueReceiver = .typed) {
    precondition(
      Int16(exactly: slot) != nil,
      "KeyValueObserving: slot \(slot) is out of range; a class and its superclasses may have at most 32,767 observable properties"
    )
    self.bits = UInt8(truncatingIfNeeded: options.rawValue) & 0x0F | receiver.rawValue << 4
    self.slotNumber = Int16(truncatingIfNeeded: slot)
  }

  /// Who receives the notifications, for ``KeyValueObservable/observationInfo``.
  var observerDescription: String { "registration" }

  /// Who receives the notifications, for ``KeyValueObservationGraph``.
  var observerSource: ObserverSource { .closure }

  /// The key it observes, for ``KeyValueObservable/observationInfo``, when
  /// that is not the name of its slot.
  var keyDescription: String? { nil }

  /// The key it observes, named on `type`, the observed object's: the
  /// ``keyDescription`` where there is one, the slot's name otherwise.
  final func keyName(on type: any KeyValueObservable.Type) -> String {
    keyDescription ?? type._$kvoKey(forSlot: slot) ?? "#\(slot)"
  }

  /// What a derived observation's value depends on now, for
  /// ``KeyValueObservable/observationInfo``; empty for everything else.
  var dependencyDescriptions: [String] { [] }

  /// Whether ``KeyValueObservable/observationInfo`` lists it: `false` for
  /// the library's own registrations with what a derived key depends on,
  /// which the derived observation's entry lists instead.
  var isListed: Bool { true }

  /// The key path a registration is filed under instead of a slot: set for
  /// the anchor of a derived observation, `nil` for everything else.
  var anchorKeyPath: AnyKeyPath? { nil }

  /// Told, once and with no lock held, that the registration was removed:
  /// invalidated, or its object deinitialised.
  func registrationEnded() {}

  /// Receives a change of the observed key without its values: the will
  /// (`isPrior`) and the did of a dependency of a derived key, made on
  /// `object` (`nil` for a manual change of a derived key itself). Called
  /// on registrations whose ``receiver`` is `.forwarding`.
  @usableFromInline
  func forwardChange(isPrior: Bool, from object: AnyObject?) {}
}

/// How a change reaches a registration, so that the notification loop, which
/// knows the values' type, calls each kind without a cast or a lookup.
///
/// Not API.
@usableFromInline
enum _KeyValueReceiver: UInt8 {
  /// A ``_KeyValueHandlerRegistration`` of the key's value type: its
  /// handler is called directly.
  case handler
  /// A ``_KeyValueValueRegistration`` of the key's value type, which
  /// receives the change through its own method.
  case typed
  /// A classic observer, which receives a change dictionary: built where
  /// the values' type is known (``ClassicRegistration``).
  case dictionary
  /// A dependency of a derived key, told only that the key changes:
  /// ``_KeyValueRegistration/forwardChange(isPrior:)``.
  case forwarding
}

/// A registration that receives values of the observed property's own type.
///
/// Not API.
public class _KeyValueValueRegistration<Value>: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: no state of its own; the base class's is guarded.

  /// Hands one change to the observer. `object` is the observed object.
  @usableFromInline func receive(_ change: KeyValueObservedChange<Value>, from object: AnyObject) {
    preconditionFailure("subclass responsibility")
  }
}

/// A registration whose handler the notification loop calls itself: a closure
/// of the observed object and the change, kept with the object's type
/// erased, so that the loop, compiled once per value type, calls it
/// without a virtual call or a cast.
///
/// Not API.
public class _KeyValueHandlerRegistration<Value>: _KeyValueValueRegistration<Value>, @unchecked Sendable {
  // @unchecked Sendable: the handler is called only on the thread that made a
  // change, which is where the caller of `observe` said changes would happen.

  /// The handler, as it was given, `(Object, KeyValueObservedChange<Value>)
  /// -> Void`, seen as a function of `AnyObject` (see ``init(options:slot:handler:)``).
  @usableFromInline let handler: (AnyObject, KeyValueObservedChange<Value>) -> Void

  /// Keeps `handler`, a function of an `Object`, as a function of any
  /// object: the slot lists of an object hold only registrations made on
  /// that object, so the object it is called with is always an `Object`.
  ///
  /// The handler is reinterpreted, not wrapped, so that a registration
  /// allocates no second closure and a notification makes no second call. This
  /// is sound because a class type and `AnyObject` have one
  /// representation, a single reference, and are passed the same way, so
  /// the two function types are called alike. It is reinterpreted inside a
  /// struct: a function handed to `unsafeBitCast` itself would be wrapped
  /// twice, to and from the most general form of a function.
  @usableFromInline
  init<Object: AnyObject>(
    options: KeyValueObservingOptions,
    slot: Int,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    self.handler = unsafeBitCast(Handler(function: handler), to: Handler<AnyObject>.self).function
    super.init(options: options, slot: slot, receiver: .handler)
  }

  /// A handler of `Object`s, as a struct's field holds it.
  private struct Handler<Object: AnyObject> {
    let function: (Object, KeyValueObservedChange<Value>) -> Void
  }
}

/// A registration made by ``KeyValueObservable/observe(_:options:isolation:fileID:line:changeHandler:)``:
/// a closure that receives the observed object with its static type.
@usableFromInline
final class ClosureRegistration<Object: AnyObject, Value>: _KeyValueHandlerRegistration<Value>,
  @unchecked Sendable
{
  @usableFromInline
  init(
    options: KeyValueObservingOptions,
    slot: Int,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    super.init(options: options, slot: slot, handler: handler)
  }

  override var observerDescription: String {
    "closure (\(Object.self), KeyValueObservedChange<\(Value.self)>)"
  }
}
