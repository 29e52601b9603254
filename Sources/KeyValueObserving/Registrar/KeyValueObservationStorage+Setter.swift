public import Observation
// A setter's part: the assignment of an observed stored property, and the
// in-place `_modify` of one. Both notify through the change path
// (Changes/KeyValueObservationStorage+Notification.swift).

extension _KeyValueObservationStorage {
  /// Assigns a stored property of `object`, and notifies when some
  /// registration waits for its key: the setter's path, on the storage it
  /// borrows. The setter's accessors, which take the object with its own
  /// type, are wrapped here, and the path shared by every class is called
  /// (``notifyingSetObserved(erased:slot:to:hasPropertyObservers:readsBack:get:set:)``).
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func assign<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool,
    hasOverridableGetter: Bool,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    guard isObserved(slot: slot) else {
      set(object, newValue)
      return
    }
    notifyingSetObserved(
      erased: object,
      slot: slot,
      to: newValue,
      hasPropertyObservers: hasPropertyObservers,
      // What was assigned is what the storage holds only for a plain value
      // (no references: a `weak` one reads `nil` once its object is being
      // freed, and releasing the old value can run a deinit that writes the
      // key again), read from the storage, with no `didSet` to adjust it.
      readsBack: hasPropertyObservers || hasOverridableGetter || !_isPOD(Value.self),
      get: { get(unsafeDowncast($0, to: Object.self)) },
      set: { set(unsafeDowncast($0, to: Object.self), $1) }
    )
  }
}

extension _KeyValueObservationStorage {
  /// Hands `event` of the property at `slot` of `object`, the object this
  /// storage belongs to, to `registrar`, with the property's key path, as
  /// the class's event member would: by the same reporter, found by index.
  /// Compiled once, here: each setter of a tracked class calls it twice.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @usableFromInline
  func reportToObservation(
    _ event: _KeyValueObservationEvent,
    slot: Int,
    of object: AnyObject,
    to registrar: ObservationRegistrar
  ) {
    observedType.observationReporter(forSlot: slot)?._withUnsafeGuaranteedRef {
      $0.report(event, to: registrar, of: object)
    }
  }
}

extension Unmanaged where Instance == _KeyValueObservationStorage {
  /// Whether a `_modify` of `slot` may hand out the property's storage
  /// itself with nothing to notify: when nobody observes the key, when its
  /// changes are announced by hand, or when a change of the key is open on
  /// this thread (a will-change, such as a collection proxy's, or a
  /// setter's change in whose prior callback the `_modify` runs), which
  /// notifies for it — never for a class that Swift Observation
  /// tracks, to which every mutation is reported.
  ///
  /// Not API: macro-generated `_modify` accessors call it.
  ///
  /// Called only on an object that has observation storage, and not
  /// inlined: each `_modify` would otherwise carry all of it.
  public func _modifiesInPlace(slot: Int) -> Bool {
    _withUnsafeGuaranteedRef { storage in
      // A class tracked by Swift Observation always takes the will/did
      // path, which reports the mutation to it.
      guard !storage.tracksObservation else { return false }
      guard storage.isObserved(slot: slot) else { return true }
      guard storage.notifiesAutomatically(slot: slot) else { return true }
      let owner = ObjectIdentifier(storage)
      // Not a link a chain walks: a write of one holds what it replaces,
      // through the setter.
      guard storage.openChanges.load(ordering: .relaxed) != 0,
        let frame = _KeyValueChangeNesting.find(owner, slot: slot), !frame.pointee.holdsReplacedLinks
      else { return false }
      // The mutation folds into the change under way.
      _KeyValueChangeNesting.noteFold(of: owner, slot: slot)
      return true
    }
  }

  /// Opens the change of an observed `_modify` that works on the
  /// property's storage itself, and returns `true`; or returns `false` for
  /// a value that copies as cheaply as it moves (an `Int`, a struct of
  /// them), which the accessor changes in a copy and assigns back instead,
  /// and where the class's key table cannot hand out the storage (an object
  /// of a subclass the macro did not mark).
  ///
  /// In place, an `append` to an observed array or a `+=` on an observed
  /// string does not copy it, unless an observer asked for `.old`: the old
  /// value is then kept, and the first mutation copies it, as it must. The
  /// change is a manual will/did pair: the accessor closes it with
  /// ``_didModifyInPlace(_:slot:)`` after its `yield`, also when the access
  /// is abandoned. The storage is read through the class's key table, so
  /// the accessor passes no function of its own.
  ///
  /// Not API: macro-generated `_modify` accessors call it.
  public func _willModifyInPlace(_ object: some KeyValueObservable, slot: Int) -> Bool {
    object.accessStorage(ofSlot: slot, .willModify(object: .passUnretained(object), observed: self, slot: slot))
      .outcome.modifiesInPlace
  }

  /// Closes the change ``_willModifyInPlace(_:slot:)`` opened, reading the
  /// new value and notifying.
  ///
  /// Not API: macro-generated `_modify` accessors call it.
  public func _didModifyInPlace(_ object: some KeyValueObservable, slot: Int) {
    _ = object.accessStorage(ofSlot: slot, .didModify(object: .passUnretained(object), observed: self, slot: slot))
  }

  /// Assigns a stored property and notifies the registrations of its key.
  ///
  /// The storage is not retained: the object being assigned keeps it alive.
  /// A key nobody observes costs one more load and a test.
  ///
  /// Not API: macro-generated setters call it.
  ///
  /// - Parameters:
  ///   - object: The object whose property changes.
  ///   - slot: The property's key slot.
  ///   - newValue: The value to assign.
  ///   - hasPropertyObservers: Whether the property has its own
  ///     `willSet`/`didSet`, which may assign it again while it changes.
  ///   - hasOverridableGetter: Whether `get` calls the property's getter,
  ///     which a subclass may override, rather than read its storage.
  ///   - get: Reads the property's value.
  ///   - set: Writes the property's storage.
  #if DEBUG
    @_transparent
  #else
    @inlinable @inline(__always)
  #endif
  public func _notifyingSet<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool = false,
    hasOverridableGetter: Bool = false,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    assignBorrowingStorage(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, hasOverridableGetter: hasOverridableGetter, get: get, set: set)
  }

  /// ``_notifyingSet(_:slot:to:hasPropertyObservers:hasOverridableGetter:get:set:)`` on a class
  /// that is `Observable`, but whose setters the macro writes without
  /// knowing it (the class is `Observable` through a protocol that refines
  /// it), or that routes its mutations through its own
  /// `withMutation(keyPath:_:)`: the assignment is also one mutation as
  /// Swift Observation sees it, made by the class's
  /// `_$kvoObservedMutation(ofSlot:_:)`. The compiler
  /// picks this overload for such a class, from the same setter text
  /// (whose storage is then never `nil`).
  ///
  /// Not API: macro-generated setters call it.
  @inlinable @inline(__always)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func _notifyingSet<Object: KeyValueObservable & Observable, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool = false,
    hasOverridableGetter: Bool = false,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    object._$kvoObservedMutation(ofSlot: slot) {
      assignBorrowingStorage(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, hasOverridableGetter: hasOverridableGetter, get: get, set: set)
    }
  }

  /// `_notifyingSet(_:slot:to:hasPropertyObservers:hasOverridableGetter:get:set:)` on a class
  /// that declares `Observable`, whose setters the macro writes with this
  /// call: the assignment is also one mutation as Swift Observation sees
  /// it, its will and its did, reported to `registrar` (the object's own),
  /// around both paths. The storage finds the property's reporter itself
  /// (one index into its class's), so a write makes no call into the
  /// class's event member and no lookup of its key table. No closure, so
  /// a release build specialises nothing more per property; and a name of
  /// its own, not an overload, so that the type checker has one function
  /// to consider for each setter.
  ///
  /// Not API: macro-generated setters call it.
  @inlinable @inline(__always)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func _notifyingTrackedSet<Object: KeyValueObservable & Observable, Value>(
    _ object: Object,
    slot: Int,
    reportingTo registrar: ObservationRegistrar,
    to newValue: Value,
    hasPropertyObservers: Bool = false,
    hasOverridableGetter: Bool = false,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    _withUnsafeGuaranteedRef { $0.reportToObservation(.willSet, slot: slot, of: object, to: registrar) }
    assignBorrowingStorage(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, hasOverridableGetter: hasOverridableGetter, get: get, set: set)
    _withUnsafeGuaranteedRef { $0.reportToObservation(.didSet, slot: slot, of: object, to: registrar) }
  }

  /// What both ``_notifyingSet(_:slot:to:hasPropertyObservers:hasOverridableGetter:get:set:)``
  /// overloads and `_notifyingTrackedSet` do, inside or between Swift
  /// Observation's reports: borrows the storage, without a retain, for
  /// its `assign`, which assigns and notifies when some registration waits
  /// for the key.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func assignBorrowingStorage<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool,
    hasOverridableGetter: Bool,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    #if DEBUG
      // Unoptimised, the closure `_withUnsafeGuaranteedRef` takes would be
      // one more frame under every handler: the storage is retained instead.
      let storage = takeUnretainedValue()
      storage.assign(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, hasOverridableGetter: hasOverridableGetter, get: get, set: set)
    #else
      _withUnsafeGuaranteedRef { storage in
        storage.assign(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, hasOverridableGetter: hasOverridableGetter, get: get, set: set)
      }
    #endif
  }
}
