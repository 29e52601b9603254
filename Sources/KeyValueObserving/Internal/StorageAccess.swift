/// One use of an observable property's backing storage, handed over with
/// its types by the class's key table (``_KeyValueKeyTable``): each key
/// holds a function, compiled where the table is built, that does the job
/// with typed functions over the storage. An assignment by string runs as
/// typed code there, with no type opened at run time.
///
/// A value, allocating nothing: what the job leaves goes to its caller's
/// ``Outcome`` through a pointer (see ``perform(_:_:)``).
///
/// Not API: the key table's builder uses it.
///
/// ```swift
/// let (handled, outcome) = person.accessStorage(ofSlot: 0, .accessors)
/// ```
public struct _KeyValueStorageAccess {
  /// What to do with the storage.
  @usableFromInline
  enum Job {
    /// Keep typed functions that read the storage and change it in place,
    /// in ``Outcome/accessors``.
    case accessors
    /// What ``accessors`` keeps, and functions that read the property as a
    /// link of a chain of them (``Outcome/linkStorage``,
    /// ``Outcome/linkObject``): see ``StoredChain``.
    case chainLink
    /// Assign the value `value` points to (`nil` when `nil` is assigned) to
    /// `object`'s property at `slot`, notifying as the property's setter
    /// does.
    case assign(object: Unmanaged<AnyObject>, value: UnsafePointer<Any>?, slot: Int)
  }

  /// What the job leaves for its caller.
  @usableFromInline
  struct Outcome {
    /// For ``Job/accessors``: a ``StorageAccessors`` of the property's
    /// value type, rooted at `AnyObject`.
    @usableFromInline var accessors: Any?
    /// For ``Job/assign(object:value:slot:)``, the property's type when the
    /// value was not of it (nothing was assigned).
    @usableFromInline var mismatchedType: Any.Type?
    /// For ``Job/chainLink``: the observation storage of an object of the
    /// class (or a subclass of it).
    @usableFromInline var linkStorage: ((AnyObject) -> Unmanaged<_KeyValueObservationStorage>?)?
    /// For ``Job/chainLink``, when the property holds an object: reads it,
    /// without retaining it (see ``StoredChain``).
    @usableFromInline var linkObject: ((AnyObject) -> Unmanaged<AnyObject>)?

    @usableFromInline
    init() {}
  }

  @usableFromInline let job: Job
  /// Where the job leaves its outcome: the caller's, on its stack (see
  /// ``perform(_:_:)``), so that an access allocates nothing.
  @usableFromInline let outcome: UnsafeMutablePointer<Outcome>

  @usableFromInline
  init(_ job: Job, outcome: UnsafeMutablePointer<Outcome>) {
    self.job = job
    self.outcome = outcome
  }

  /// Runs `run` with an access doing `job`; returns what `run` returned and
  /// the job's outcome. The access, and the pointers in `job`, are valid
  /// only inside `run`.
  static func perform(_ job: Job, _ run: (_KeyValueStorageAccess) -> Bool) -> (handled: Bool, outcome: Outcome) {
    var outcome = Outcome()
    let handled = withUnsafeMutablePointer(to: &outcome) { run(_KeyValueStorageAccess(job, outcome: $0)) }
    return (handled, outcome)
  }

  /// Does the job on `storage`; returns `true`. Specialised for each
  /// value type where tables are built, once for all the properties of
  /// that type in the module, and not inlined into each.
  @inlinable @inline(never)
  func perform<Value>(_ storage: _KeyValueTypedStorage<Value>) -> Bool {
    switch job {
    case .accessors, .chainLink:
      // The table belongs to the object's class or to a superclass of it.
      outcome.pointee.accessors = StorageAccessors<Value>(
        get: storage.get, modify: storage.modify, hasPropertyObservers: storage.hasPropertyObservers
      )
      guard case .chainLink = job else { break }
      outcome.pointee.linkStorage = storage.observedStorage
      // A class: one reference, handed on as it is (`as AnyObject` would
      // go through the run time's bridging).
      if Value.self is AnyObject.Type, MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size {
        let get = storage.get
        outcome.pointee.linkObject = { Unmanaged.passUnretained(unsafeBitCast(get($0), to: AnyObject.self)) }
      }
    case .assign(let object, let value, let slot):
      object._withUnsafeGuaranteedRef { assign(value, to: $0, slot: slot, through: storage) }
    }
    return true
  }

  /// Assigns the value `value` points to (`nil`: an optional's `nil`) to
  /// `object`'s storage, notifying the registrations of `slot` as the
  /// setter does, or records that it is not a `Value`.
  @inlinable
  func assign<Value>(
    _ value: UnsafePointer<Any>?,
    to object: AnyObject,
    slot: Int,
    through storage: _KeyValueTypedStorage<Value>
  ) {
    guard let newValue = assignable(value, as: Value.self) else {
      outcome.pointee.mismatchedType = Value.self
      return
    }
    storage.assign(object, slot, newValue)
  }
}

/// The backing storage of one observable property holding a `Value`, as
/// functions of the object: what a key table keeps for a property, made
/// where the table is built, with the class's type. The jobs done on the
/// storage (``_KeyValueStorageAccess``) need only the value's type, so
/// that they are compiled once per value type, not once per property.
///
/// Not API: the key table's builder makes them.
public struct _KeyValueTypedStorage<Value> {
  /// Whether the storage has `willSet`/`didSet` of its own, which may
  /// assign it again while it changes.
  @usableFromInline let hasPropertyObservers: Bool
  @usableFromInline let get: (AnyObject) -> Value
  @usableFromInline let modify: (AnyObject, (inout Value) -> Void) -> Void
  /// The object's registrations (its `_$kvoObservedStorage`).
  @usableFromInline let observedStorage: (AnyObject) -> Unmanaged<_KeyValueObservationStorage>?
  /// Assigns a value to the storage of the object's slot, notifying as the
  /// property's setter does: compiled with the class's type, as the setter
  /// is, so that it shares the setter's specialised notification path.
  @usableFromInline let assign: (AnyObject, Int, Value) -> Void

  /// The storage of a property of `Root`, through functions typed with it.
  ///
  /// ```swift
  /// let storage = _KeyValueTypedStorage(Person.self, hasPropertyObservers: false,
  ///     get: { $0._name }, set: { $0._name = $1 }, modify: { $0(&$1._name) })
  /// ```
  @inlinable
  public init<Root: KeyValueObservable>(
    _: Root.Type,
    hasPropertyObservers: Bool,
    get: @escaping (Root) -> Value,
    set: @escaping (Root, Value) -> Void,
    modify: @escaping ((inout Value) -> Void, Root) -> Void
  ) {
    self.hasPropertyObservers = hasPropertyObservers
    self.get = { get(unsafeDowncast($0, to: Root.self)) }
    self.modify = { object, body in modify(body, unsafeDowncast(object, to: Root.self)) }
    self.observedStorage = { unsafeDowncast($0, to: Root.self)._$kvoObservedStorage }
    self.assign = { object, slot, newValue in
      let root = unsafeDowncast(object, to: Root.self)
      root._$kvoObservedMutation(ofSlot: slot) {
        guard let storage = root._$kvoObservedStorage else {
          set(root, newValue)
          return
        }
        storage.notifyingSet(
          root, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, get: get, set: set
        )
      }
    }
  }
}

/// The value `value` points to as a `Value`, cast where it lies; no value
/// becomes an optional type's `nil`; `nil` when it is not one.
@inlinable
func assignable<Value>(_ value: UnsafePointer<Any>?, as _: Value.Type) -> Value? {
  if let value { return value.pointee as? Value }
  return (Value.self as? any OptionalValue.Type)?.nilValue as? Value
}

extension KeyValueObservable {
  /// Does `job` on the storage of the property at `slot`, through the
  /// table of this object's class, and gives what it left. `handled` is
  /// `false` when there is no storage to hand: a property a marked subclass
  /// overrides, or an object of a subclass the macro did not mark, whose
  /// overrides no table lists.
  ///
  /// ```swift
  /// let (handled, outcome) = person.accessStorage(ofSlot: 0, .accessors)
  /// ```
  func accessStorage(
    ofSlot slot: Int,
    _ job: _KeyValueStorageAccess.Job
  ) -> (handled: Bool, outcome: _KeyValueStorageAccess.Outcome) {
    let dynamicType = type(of: self)
    let keys = dynamicType._$kvoKeys
    guard ObjectIdentifier(keys.markedType) == ObjectIdentifier(dynamicType) else { return (false, .init()) }
    return _KeyValueStorageAccess.perform(job) { keys.accessStorage(ofSlot: slot, $0) }
  }
}
