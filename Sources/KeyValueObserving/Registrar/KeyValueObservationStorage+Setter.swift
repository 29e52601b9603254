public import Observation
public import Synchronization

// The change path: a change made within one call — a setter's assignment,
// a collection proxy's mutation — and the one delivery loop every change's
// notifications go through.

extension _KeyValueObservationStorage {
  /// Assigns a stored property whose key has registrations, and notifies
  /// them: the part of a setter kept out of line, so that the setter's own
  /// code stays a load, a test and a store.
  ///
  /// The old value is read only when a registration asked for `.old`, the
  /// new value (read back after the assignment, so a `didSet` that adjusts
  /// it is seen) only when one asked for `.new`. Registrations removed during
  /// delivery are skipped; ones added during it wait for the next change.
  /// A write made in the object's own `deinit` notifies nobody: handlers
  /// would be handed an object that is being freed.
  ///
  /// Compiled once per value type in each module that has setters, not
  /// once per property: the object's class is erased, and the accessors
  /// come as functions of any object.
  @inlinable @inline(never)
  func notifyingSetObserved<Value>(
    erased object: AnyObject,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool,
    get: (AnyObject) -> Value,
    set: (AnyObject, Value) -> Void
  ) {
    guard notifiesAutomatically(slot: slot) else {
      set(object, newValue)
      return
    }
    notifyingChange(
      object,
      slot: slot,
      shape: ChangeShape(kind: .setting, indexRanges: nil),
      mayNest: hasPropertyObservers,
      oldValue: get,
      change: { set($0, newValue) },
      newValue: get
    )
  }

  /// ``notifyingSetObserved(erased:slot:to:hasPropertyObservers:get:set:)``
  /// with the accessors of a setter of `Object`, which take the object with
  /// its own type: they are wrapped here, in the setter, and the shared
  /// path is called.
  @inlinable @inline(__always)
  func notifyingSetObserved<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    notifyingSetObserved(
      erased: object,
      slot: slot,
      to: newValue,
      hasPropertyObservers: hasPropertyObservers,
      get: { get(unsafeDowncast($0, to: Object.self)) },
      set: { set(unsafeDowncast($0, to: Object.self), $1) }
    )
  }

  /// Makes a change of `slot` of `object` that happens within this call
  /// (`change`), and notifies the key's registrations of it as `shape`
  /// says: the assignment of a setter, or a collection proxy's insertion,
  /// removal or replacement.
  ///
  /// `oldValue` and `newValue` read what the notifications carry (the
  /// whole value, or the elements the change touches) and are called only
  /// when a registration asked for them and the shape has them. User code
  /// can run inside the change only in prior callbacks and in the
  /// property's own observers (`mayNest`), or when a manual change is open
  /// somewhere; only then is the change recorded in the thread's nesting,
  /// so that the same key changed inside it folds into it, and a change
  /// made inside one of the same key only changes.
  @inlinable @inline(__always)
  func notifyingChange<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    shape: ChangeShape,
    mayNest: Bool,
    oldValue: (Object) -> Value,
    change: (Object) -> Void,
    newValue: (Object) -> Value
  ) {
    guard !isDeinitializing(object), let snapshot = beginChange(ofSlot: slot) else {
      change(object)
      return
    }
    defer { endChange(snapshot) }
    let old: Value? = snapshot.wantsOldValue && shape.hasOldValue ? oldValue(object) : nil
    if snapshot.hasPrior || mayNest || _KeyValueChangeNesting.openManualChanges.load(ordering: .relaxed) != 0 {
      let changed: Void? = _KeyValueChangeNesting.withChange(of: self, slot: slot) {
        if snapshot.hasPrior {
          deliver(snapshot, shape: shape, isPrior: true, oldValue: old, newValue: nil, from: object)
        }
        change(object)
      }
      guard changed != nil else {
        // The same key of this object is already changing on this thread:
        // the outer change reports the final value.
        change(object)
        return
      }
    } else {
      change(object)
    }
    let new: Value? = snapshot.wantsNewValue && shape.hasNewValue ? newValue(object) : nil
    deliver(snapshot, shape: shape, isPrior: false, oldValue: old, newValue: new, from: object)
  }

  /// Sends the notifications of one change, shaped `shape`, to the live
  /// registrations of `snapshot`: its prior ones (`isPrior`, to those that
  /// asked for `.prior`), or the ones after it. Each gets the values it
  /// asked for. Every change's notifications go through this loop.
  @inlinable
  func deliver<Value>(
    _ snapshot: ChangeSnapshot,
    shape: ChangeShape,
    isPrior: Bool,
    oldValue: Value?,
    newValue: Value?,
    from object: AnyObject
  ) {
    snapshot.forEachLive(closingChanges: !isPrior) { registration in
      let options = registration.options
      guard !isPrior || options.contains(.prior) else { return }
      let change = KeyValueObservedChange<Value>(
        kind: shape.kind,
        newValue: options.contains(.new) ? newValue : nil,
        oldValue: options.contains(.old) ? oldValue : nil,
        indexRanges: shape.indexRanges,
        isPrior: isPrior
      )
      deliver(change, to: registration, from: object)
    }
  }

  /// Hands `change` to one registration of a key whose values are `Value`.
  ///
  /// A closure registration's handler is called directly. A classic
  /// observer gets the values boxed here, where their type is known, so
  /// that no generic code runs for its dictionary. A dependency of a
  /// derived key only learns that the key changes; any other registration
  /// receives the change through its class's method.
  @inlinable @inline(__always)
  func deliver<Value>(
    _ change: KeyValueObservedChange<Value>,
    to registration: _KeyValueRegistration,
    from object: AnyObject
  ) {
    switch registration.receiver {
    case .handler:
      unsafeDowncast(registration, to: _KeyValueHandlerRegistration<Value>.self).handler(object, change)
    case .typed:
      unsafeDowncast(registration, to: _KeyValueValueRegistration<Value>.self).deliver(change, from: object)
    case .dictionary:
      // Boxed here, where the type is known; the dictionary is built out of
      // line (built here, it would crowd the loop into copying each change).
      unsafeDowncast(registration, to: ClassicRegistration.self).receive(
        kind: change.kind,
        oldValue: change.oldValue.map { $0 as Any },
        newValue: change.newValue.map { $0 as Any },
        indexRanges: change.indexRanges,
        isPrior: change.isPrior,
        from: object
      )
    case .forwarding:
      registration.forwardChange(isPrior: change.isPrior)
    }
  }
}

extension Unmanaged where Instance == _KeyValueObservationStorage {
  /// Whether a `_modify` of `slot` may hand out the property's storage
  /// itself with nothing to notify: when nobody observes the key, when its
  /// changes are announced by hand, or when a manual change of the key (a
  /// will-change, such as a collection proxy's) is open on this thread,
  /// which notifies for it — never for a class that Swift Observation
  /// tracks, to which every mutation is reported.
  ///
  /// Not API: macro-generated `_modify` accessors call it.
  ///
  /// ```swift
  /// // guard let storage = _$kvoObservedStorage, !storage.modifiesInPlace(slot: 3) else {
  /// //   yield &_tags
  /// //   return
  /// // }
  /// ```
  ///
  /// Called only on an object that has observation storage, and not
  /// inlined: each `_modify` would otherwise carry all of it.
  public func modifiesInPlace(slot: Int) -> Bool {
    _withUnsafeGuaranteedRef { storage in
      // A class tracked by Swift Observation always takes the will/did
      // path, which reports the mutation to it.
      guard !storage.tracksObservation else { return false }
      guard storage.isObserved(slot: slot) else { return true }
      return !storage.notifiesAutomatically(slot: slot)
        || (_KeyValueChangeNesting.openManualChanges.load(ordering: .relaxed) != 0
          && _KeyValueChangeNesting.find(ObjectIdentifier(storage), slot: slot) != nil)
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
  /// ``didModifyInPlace(_:slot:)`` after its `yield`, also when the access
  /// is abandoned. The storage is read through the class's key table, so
  /// the accessor passes no function of its own.
  ///
  /// Not API: macro-generated `_modify` accessors call it.
  ///
  /// ```swift
  /// // guard storage.willModifyInPlace(self, slot: 3) else { … copy … }
  /// // defer { storage.didModifyInPlace(self, slot: 3) }
  /// // yield &_tags
  /// ```
  public func willModifyInPlace(_ object: some KeyValueObservable, slot: Int) -> Bool {
    object.accessStorage(ofSlot: slot, .willModify(object: .passUnretained(object), observed: self, slot: slot))
      .outcome.modifiesInPlace
  }

  /// Closes the change ``willModifyInPlace(_:slot:)`` opened, reading the
  /// new value and notifying.
  ///
  /// Not API: macro-generated `_modify` accessors call it.
  ///
  /// ```swift
  /// // defer { storage.didModifyInPlace(self, slot: 3) }
  /// ```
  public func didModifyInPlace(_ object: some KeyValueObservable, slot: Int) {
    _ = object.accessStorage(ofSlot: slot, .didModify(object: .passUnretained(object), observed: self, slot: slot))
  }

  /// Assigns a stored property and notifies the registrations of its key.
  ///
  /// The storage is not retained: the object being assigned keeps it alive.
  /// A key nobody observes costs one more load and a test.
  ///
  /// Not API: macro-generated setters call it.
  ///
  /// ```swift
  /// // storage.notifyingSet(self, slot: 0, to: newValue, get: { $0._name }, set: { $0._name = $1 })
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object whose property changes.
  ///   - slot: The property's key slot.
  ///   - newValue: The value to assign.
  ///   - hasPropertyObservers: Whether the property has its own
  ///     `willSet`/`didSet`, which may assign it again while it changes.
  ///   - get: Reads the property's storage.
  ///   - set: Writes the property's storage.
  @inlinable @inline(__always)
  public func notifyingSet<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool = false,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    assign(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, get: get, set: set)
  }

  /// ``notifyingSet(_:slot:to:hasPropertyObservers:get:set:)`` on a class
  /// that declares `Observable`: the assignment is also one mutation as
  /// Swift Observation sees it. The compiler picks this overload for such a
  /// class, from the same setter text (whose storage is then never `nil`).
  ///
  /// Not API: macro-generated setters call it.
  ///
  /// ```swift
  /// // storage.notifyingSet(self, slot: 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
  /// ```
  @inlinable @inline(__always)
  public func notifyingSet<Object: KeyValueObservable & Observable, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool = false,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    // One mutation around both paths: its two reports are compiled once
    // per setter.
    object._$kvoObservedMutation(ofSlot: slot) {
      assign(object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, get: get, set: set)
    }
  }

  /// What both ``notifyingSet(_:slot:to:hasPropertyObservers:get:set:)``
  /// overloads do, one inside Swift Observation's mutation: assigns, and
  /// notifies when some registration waits for the key.
  @inlinable @inline(__always)
  func assign<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool,
    get: (Object) -> Value,
    set: (Object, Value) -> Void
  ) {
    _withUnsafeGuaranteedRef { storage in
      guard storage.isObserved(slot: slot) else {
        set(object, newValue)
        return
      }
      storage.notifyingSetObserved(
        object, slot: slot, to: newValue, hasPropertyObservers: hasPropertyObservers, get: get, set: set
      )
    }
  }
}
