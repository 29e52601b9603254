/// One use of an observable property's backing storage, handed over with
/// its types by the class's key table (``_KeyValueKeyTable``): each key
/// holds a function, compiled where the table is built, that does the job
/// with typed functions over the storage. An assignment by string runs as
/// typed code there, with no type opened at run time.
///
/// A value, allocating nothing: what the job leaves goes to its caller's
/// ``Outcome`` through a pointer (see ``perform(_:on:slot:)``).
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
    /// Keep the property's ``_KeyValueTypedStorage`` in
    /// ``Outcome/accessors``.
    case accessors
    /// What ``accessors`` keeps, and functions that read the property as a
    /// link of a chain of them (``Outcome/linkStorage``,
    /// ``Outcome/linkObject``): see ``StoredChain``.
    case chainLink
    /// Assign the value `value` points to (`nil` when `nil` is assigned) to
    /// `object`'s property at `slot`, notifying as the property's setter
    /// does.
    case assign(object: Unmanaged<AnyObject>, value: UnsafePointer<Any>?, slot: Int)
    /// Open the change of a `_modify` of `object`'s property at `slot`
    /// that works on the storage in place, through `observed`, its
    /// observation storage; or, for a value that copies as cheaply as it
    /// moves, do nothing (``Outcome/modifiesInPlace`` stays `false`).
    /// (Every payload is a plain value: a job is copied and destroyed on
    /// every access, and an assignment by string is one.)
    case willModify(object: Unmanaged<AnyObject>, observed: Unmanaged<_KeyValueObservationStorage>, slot: Int)
    /// Close the change ``willModify(object:observed:slot:)`` opened.
    case didModify(object: Unmanaged<AnyObject>, observed: Unmanaged<_KeyValueObservationStorage>, slot: Int)
  }

  /// What the job leaves for its caller.
  @usableFromInline
  struct Outcome {
    /// For ``Job/accessors`` and ``Job/chainLink``: the property's
    /// ``_KeyValueTypedStorage``.
    @usableFromInline var accessors: AnyObject?
    /// For ``Job/assign(object:value:slot:)``, the property's type when the
    /// value was not of it (nothing was assigned).
    @usableFromInline var mismatchedType: Any.Type?
    /// For ``Job/chainLink``: the observation storage of an object of the
    /// class (or a subclass of it).
    @usableFromInline var linkStorage: ((AnyObject) -> Unmanaged<_KeyValueObservationStorage>?)?
    /// For ``Job/chainLink``, when the property holds an object, or an
    /// optional one (`weak` included): reads it, retained (the caller
    /// releases it), or `nil` (see ``StoredChain``).
    @usableFromInline var linkObject: ((AnyObject) -> Unmanaged<AnyObject>?)?
    /// For ``Job/willModify(object:observed:slot:)``: whether a change
    /// was opened, to be closed after the storage is changed in place.
    @usableFromInline var modifiesInPlace = false

    @usableFromInline
    init() {}
  }

  @usableFromInline let job: Job
  /// The table of the object's class, whose functions of the class as a
  /// whole (its observation storage, its mutations as Swift Observation
  /// sees them) the jobs use.
  @usableFromInline let table: _KeyValueKeyTable
  /// Where the job leaves its outcome: the caller's, on its stack (see
  /// ``perform(_:on:slot:)``), so that an access allocates nothing.
  @usableFromInline let outcome: UnsafeMutablePointer<Outcome>

  @usableFromInline
  init(_ job: Job, table: _KeyValueKeyTable, outcome: UnsafeMutablePointer<Outcome>) {
    self.job = job
    self.table = table
    self.outcome = outcome
  }

  /// Does `job` on the storage of the property at `slot`, through `table`,
  /// the table of the object's class (the most derived marked one);
  /// returns whether there was storage to hand and the job's outcome.
  static func perform(_ job: Job, on table: _KeyValueKeyTable, slot: Int) -> (handled: Bool, outcome: Outcome) {
    var outcome = Outcome()
    let handled = withUnsafeMutablePointer(to: &outcome) {
      table.accessStorage(ofSlot: slot, _KeyValueStorageAccess(job, table: table, outcome: $0))
    }
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
      outcome.pointee.accessors = storage
      guard case .chainLink = job else { break }
      outcome.pointee.linkStorage = table.classFunctions.observedStorage
      // A class, or an optional one: one reference, null for `nil`, handed
      // on as it is (`as AnyObject` would go through the run time's
      // bridging). An optional class-bound existential carries a witness
      // table too, and is left to the key path.
      let get = storage.get
      switch ObjectLink(Value.self) {
      case .object:
        outcome.pointee.linkObject = { Unmanaged.passRetained(unsafeBitCast(get($0), to: AnyObject.self)) }
      case .optionalObject:
        outcome.pointee.linkObject = { unsafeBitCast(get($0), to: AnyObject?.self).map(Unmanaged.passRetained) }
      case nil:
        break
      }
    case .assign(let object, let value, let slot):
      object._withUnsafeGuaranteedRef { assign(value, to: $0, slot: slot, through: storage) }
    case .willModify(let object, let observed, let slot):
      // A plain value copies as cheaply as it moves; an object's reference
      // is assigned back through the setter, which holds what it replaces
      // for a chain's walks (KeyValueObservationStorage+LinkReaders.swift).
      guard !_isPOD(Value.self), ObjectLink(Value.self) == nil else { break }
      outcome.pointee.modifiesInPlace = true
      let object = table.classFunctions.observable(object.takeUnretainedValue())
      observed._withUnsafeGuaranteedRef { $0.willModify(object, slot: slot, get: storage.get) }
    case .didModify(let object, let observed, let slot):
      let object = table.classFunctions.observable(object.takeUnretainedValue())
      observed._withUnsafeGuaranteedRef { $0.didModify(object, slot: slot, get: storage.get) }
    }
    return true
  }

  /// Assigns the value `value` points to (`nil`: an optional's `nil`) to
  /// `object`'s storage, notifying the registrations of `slot` as the
  /// setter does — one mutation, for a class Swift Observation tracks — or
  /// records that it is not a `Value`.
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
    let functions = table.classFunctions
    func assign() {
      guard let observed = functions.observedStorage(object) else {
        storage.set(object, newValue)
        return
      }
      observed._notifyingSet(
        object, slot: slot, to: newValue, hasPropertyObservers: storage.hasPropertyObservers,
        get: storage.get, set: { storage.set($0, $1) }
      )
    }
    guard let mutation = functions.observedMutation else { return assign() }
    mutation(object, slot, assign)
  }
}
