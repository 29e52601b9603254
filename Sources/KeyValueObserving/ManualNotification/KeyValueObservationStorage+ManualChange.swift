// Manual will/did changes: opened at the will, notified at the outermost did.
// Each will and each did that closes one is also reported to Swift
// Observation, for a class it tracks.

extension _KeyValueObservationStorage {
  /// Opens a manual change of the whole value of `slot`: reads the old
  /// value if a registration wants it (`oldValue` gives it) and sends the
  /// prior notifications. A will-change nested in a change of the same key
  /// on this thread only deepens it.
  func willChange<Object: KeyValueObservable, Value>(
    _ object: Object,
    slot: Int,
    oldValue: (Object) -> Value
  ) {
    willChange(object, slot: slot, shape: .setting, newValue: nil, oldValue: oldValue, value: oldValue)
  }

  /// Opens a manual change of `slot` shaped `shape`: reads the old value
  /// if a registration wants it and the change has one (`oldValue` gives
  /// it: for a to-many change the elements it removes), and sends the
  /// prior notifications. `newValue`, when given, is what the did reports
  /// as new (a set mutation works it out here, from the set before the
  /// change). `value` reads the whole value: a to-many change that another
  /// change of the key folds into while its prior notifications are sent
  /// is notified as a setting (see ``FoldWatch``). A will-change nested in
  /// a change of the same key on this thread only deepens it.
  func willChange<Object: KeyValueObservable, Value>(
    _ object: Object,
    slot: Int,
    shape: ChangeShape,
    newValue: Value?,
    oldValue: (Object) -> Value,
    value: (Object) -> Value
  ) {
    // In the object's own deinit nobody is notified (see
    // notifyingSetObserved), so no change opens.
    guard !isDeinitializing(object) else { return }
    object._$kvoObservationEvent(.willSet, slot: slot)
    if let frame = _KeyValueChangeNesting.find(ObjectIdentifier(self), slot: slot) {
      _KeyValueChangeNesting.noteFold(of: ObjectIdentifier(self), slot: slot)
      if let pending = frame.pointee.pending {
        // A manual change of this key (one key, one value type) is open.
        (pending.takeUnretainedValue() as? ManualChange<Value>)?.depth += 1
      } else {
        // Inside a setter's change of the same key: that change notifies.
        let nested = ManualChange<Value>(
          storage: self, slot: slot, shape: shape, registrations: nil, oldValue: nil, newValue: nil
        )
        nested.frame.pointee.holdsReplacedLinks = frame.pointee.holdsReplacedLinks
        openManualChange(nested)
      }
      return
    }
    let lasting = beginLastingChange(ofSlot: slot)
    let snapshot = lasting?.snapshot
    let old = snapshot?.oldValue(of: shape) { oldValue(object) }
    let new = snapshot?.newValue(of: shape) { newValue }
    let change = ManualChange(storage: self, slot: slot, shape: shape, registrations: lasting, oldValue: old, newValue: new)
    // A link a chain walks: a `_modify` inside the change assigns through
    // the setter, which holds what it replaces (see `Frame.holdsReplacedLinks`).
    if snapshot?.isWalkedByChain == true, ObjectLink(Value.self) != nil {
      change.frame.pointee.holdsReplacedLinks = true
    }
    openManualChange(change)
    guard let snapshot, snapshot.hasPrior else { return }
    guard shape.kind != .setting else {
      notify(snapshot, shape: shape, isPrior: true, oldValue: old, newValue: nil, from: object)
      return
    }
    // A change of the key made in a prior callback is not the one announced.
    change.folded = _KeyValueChangeNesting.watchingFolds(
      of: ObjectIdentifier(self),
      slot: slot,
      readingBefore: snapshot.wantsOldValue,
      readBefore: { change.valueBefore = value(object) }
    ) {
      notify(snapshot, shape: shape, isPrior: true, oldValue: old, newValue: nil, from: object)
    }
  }

  /// Closes a manual change of `slot`: the outermost did-change reads the
  /// new value (`newValue` gives it, as `oldValue` did the old one) and
  /// notifies, with the shape its will-change gave. Returns `false` when no
  /// will-change of `slot` is open on this thread.
  func didChange<Object: KeyValueObservable, Value>(_ object: Object, slot: Int, newValue: (Object) -> Value) -> Bool {
    didChange(object, slot: slot, newValue: newValue, value: newValue)
  }

  /// ``didChange(_:slot:newValue:)`` of a change that may be a to-many
  /// one: `value` reads the whole value, which a to-many change that
  /// another change of the key folded into notifies as its new value, a
  /// setting.
  func didChange<Object: KeyValueObservable, Value>(
    _ object: Object,
    slot: Int,
    newValue: (Object) -> Value,
    value: (Object) -> Value
  ) -> Bool {
    guard !isDeinitializing(object) else { return true }
    guard let change = _KeyValueChangeNesting.pendingChange(of: self, slot: slot) as? ManualChange<Value> else {
      return false
    }
    defer { object._$kvoObservationEvent(.didSet, slot: slot) }
    change.depth -= 1
    guard change.depth == 0 else { return true }
    _KeyValueChangeNesting.close(change)
    openChanges.subtract(1, ordering: .relaxed)
    guard let snapshot = change.registrations?.snapshot else { return true }
    guard !change.folded else {
      let new = snapshot.newValue(of: .setting) { value(object) }
      notify(snapshot, shape: .setting, isPrior: false, oldValue: change.valueBefore, newValue: new, from: object)
      return true
    }
    let new = snapshot.newValue(of: change.shape) { change.newValueAtWill ?? newValue(object) }
    notify(snapshot, shape: change.shape, isPrior: false, oldValue: change.oldValue, newValue: new, from: object)
    return true
  }

  /// Runs `body`, the mutation of the to-many change of `slot` that the
  /// caller opened on this thread (a set proxy's), watching for changes of
  /// the key that fold into it: the property's own `willSet`/`didSet`
  /// changing it again. One makes the change's record a setting; the whole
  /// value before is kept now for it, when a registration asked for
  /// `.old`, since such a fold comes after the mutation.
  func watchingMutation<Object: KeyValueObservable, Value>(
    _ object: Object,
    slot: Int,
    value: (Object) -> Value,
    _ body: () -> Void
  ) {
    guard let change = _KeyValueChangeNesting.pendingChange(of: self, slot: slot) as? ManualChange<Value>,
      change.depth == 1, change.shape.kind != .setting, let snapshot = change.registrations?.snapshot
    else { return body() }
    if snapshot.wantsOldValue && !change.folded {
      change.valueBefore = value(object)
    }
    let folded = _KeyValueChangeNesting.watchingFolds(
      of: ObjectIdentifier(self),
      slot: slot,
      readingBefore: false,
      readBefore: {},
      body
    )
    if folded { change.folded = true }
  }

  /// Opens the change of a `_modify` that works in place: a will-change of
  /// the whole value.
  @usableFromInline
  func willModify<Object: KeyValueObservable, Value>(_ object: Object, slot: Int, get: (AnyObject) -> Value) {
    guard notifiesAutomatically(slot: slot) else {
      // Only a class tracked by Swift Observation gets here for a key
      // notified by hand (see _modifiesInPlace(slot:)): the mutation is
      // reported to Observation alone.
      object._$kvoObservationEvent(.willSet, slot: slot)
      return
    }
    willChange(object, slot: slot, oldValue: get)
  }

  /// Closes the change ``willModify(_:slot:get:)`` opened.
  @usableFromInline
  func didModify<Object: KeyValueObservable, Value>(_ object: Object, slot: Int, get: (AnyObject) -> Value) {
    guard notifiesAutomatically(slot: slot) else {
      object._$kvoObservationEvent(.didSet, slot: slot)
      return
    }
    _ = didChange(object, slot: slot, newValue: get)
  }

  private func openManualChange(_ change: PendingChange) {
    openChanges.add(1, ordering: .relaxed)
    _KeyValueChangeNesting.open(change)
  }
}

/// A manual will-change waiting for its did-change: how deeply it is
/// nested, the registrations it notifies and the old value read at the will.
final class ManualChange<Value>: PendingChange {
  /// How many will calls on this key are still waiting for their did;
  /// touched only by the thread whose record holds the change.
  @exclusivity(unchecked) var depth = 1

  /// The registrations to notify, held until the did; `nil` when the change
  /// is nested in a setter's change of the same key, which notifies instead.
  let registrations: (holder: AnyObject, snapshot: ChangeSnapshot)?
  let oldValue: Value?
  /// The new value, when the will-change already worked it out (a set
  /// mutation's added elements); the did reads it otherwise.
  let newValueAtWill: Value?
  /// The kind and indexes the will-change announced.
  let shape: ChangeShape
  /// Whether another change of the key folded into this to-many one where
  /// it was watched (see ``FoldWatch``): the did notifies a setting.
  @exclusivity(unchecked) var folded = false
  /// The whole value before the change, for a folded one's setting; read
  /// only when a registration asked for `.old`.
  @exclusivity(unchecked) var valueBefore: Value?

  init(
    storage: _KeyValueObservationStorage,
    slot: Int,
    shape: ChangeShape,
    registrations: (holder: AnyObject, snapshot: ChangeSnapshot)?,
    oldValue: Value?,
    newValue: Value?
  ) {
    self.registrations = registrations
    self.shape = shape
    self.oldValue = oldValue
    self.newValueAtWill = newValue
    super.init(owner: storage, slot: slot)
  }
}

extension _KeyValueObservationStorage {
  /// A manual will (`isPrior`) or did of a key that is not stored — a
  /// computed key, a chain —, told to the observations of it, which are
  /// filed under its key path: the typed and the string forms both. Also
  /// how a write to a computed property through key-value coding or a
  /// binding is announced.
  @usableFromInline
  func forwardManualChange(of keyPath: AnyKeyPath, isPrior: Bool) {
    guard let anchors = beginChange(of: objectType._$kvoFilingKeyPath(keyPath)) else { return }
    anchors.forEachLive(closingChanges: !isPrior) { $0.forwardChange(isPrior: isPrior, from: nil) }
    endChange(anchors)
  }
}
