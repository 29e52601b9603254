/// The backing storage of one observable property holding a `Value`, as
/// two functions of the object: what a key table keeps for a property (a
/// class, so that handing it on costs one reference count). The
/// jobs done on the storage (``_KeyValueStorageAccess``) need only the
/// value's type, so that they are compiled once per value type, not once
/// per property.
///
/// Not API: the key table's builder makes them.
///
/// ```swift
/// let storage = _KeyValueTypedStorage<String>(
///   hasPropertyObservers: false,
///   get: { unsafeDowncast($0, to: Person.self)._name },
///   modify: { $0(&unsafeDowncast($1, to: Person.self)._name) }
/// )
/// ```
public final class _KeyValueTypedStorage<Value> {
  /// Whether the storage has `willSet`/`didSet` of its own, which may
  /// assign it again while it changes.
  @usableFromInline let hasPropertyObservers: Bool
  /// Reads the storage of the object (of the class the table belongs to,
  /// or a subclass of it).
  @usableFromInline let get: (AnyObject) -> Value
  /// Hands the object's storage to the body, in place.
  @usableFromInline let modify: ((inout Value) -> Void, AnyObject) -> Void

  @inlinable
  public init(
    hasPropertyObservers: Bool,
    get: @escaping (AnyObject) -> Value,
    modify: @escaping ((inout Value) -> Void, AnyObject) -> Void
  ) {
    self.hasPropertyObservers = hasPropertyObservers
    self.get = get
    self.modify = modify
  }

  /// Assigns the object's storage, with nothing notified.
  @inlinable
  func set(_ object: AnyObject, _ newValue: Value) {
    modify({ $0 = newValue }, object)
  }
}

/// The value `value` points to as a `Value`, cast where it lies; no value
/// becomes an optional type's `nil`; `nil` when it is not one.
///
/// A value of exactly the property's type, the common case, is taken
/// without the run time's dynamic cast, which costs as much as the rest of
/// an assignment by string.
@inlinable
func assignable<Value>(_ value: UnsafePointer<Any>?, as _: Value.Type) -> Value? {
  guard let value else { return (Value.self as? any OptionalValue.Type)?.nilValue as? Value }
  func exactly<Opened>(_ opened: Opened) -> Value? {
    Opened.self == Value.self ? unsafeBitCast(opened, to: Value.self) : nil
  }
  return _openExistential(value.pointee, do: exactly) ?? value.pointee as? Value
}

extension KeyValueObservable {
  /// Does `job` on the storage of the property at `slot`, through the
  /// table of this object's class, and gives what it left. `handled` is
  /// `false` when there is no storage to hand: a property a marked subclass
  /// overrides, or an object of a subclass the macro did not mark, whose
  /// overrides no table lists.
  ///
  /// `staticKeys`, the table of the static type, spares looking the table
  /// up again when the object is of exactly that type.
  func accessStorage(
    ofSlot slot: Int,
    _ job: _KeyValueStorageAccess.Job,
    staticKeys: _KeyValueKeyTable? = nil
  ) -> (handled: Bool, outcome: _KeyValueStorageAccess.Outcome) {
    let dynamicType = ObjectIdentifier(type(of: self))
    let keys =
      if let staticKeys, ObjectIdentifier(staticKeys.markedType) == dynamicType { staticKeys } else { type(of: self)._$kvoKeys }
    guard ObjectIdentifier(keys.markedType) == dynamicType else { return (false, .init()) }
    return _KeyValueStorageAccess.perform(job, on: keys, slot: slot)
  }
}
