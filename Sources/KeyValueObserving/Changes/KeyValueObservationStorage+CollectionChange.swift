// The change path of a collection proxy's mutation made in place: an
// insertion, removal or replacement whose notifications carry the elements
// it touched, or, when another change of the key folded into it, a setting
// of the whole value (see FoldWatch). Laid out as the setter's path is
// (KeyValueObservationStorage+Notification.swift): in a debug build the
// work before the notifications is out of line, so that the frame a
// handler runs under holds little more than the values it is handed.

extension _KeyValueObservationStorage {
  /// Makes `change`, an insertion, removal or replacement of the collection
  /// at `slot` of `object` shaped `shape`, and notifies the key's
  /// registrations: with the elements `elements` picks from the whole
  /// value `value` reads, before the change for old and after it for new.
  ///
  /// A change of the key made inside it — in a prior callback, or by the
  /// property's own `willSet`/`didSet` (`mayNest`) — folds into it and
  /// makes its record untrue: the registrations are then notified of a
  /// setting, from the whole value before to the whole value after. That
  /// costs nothing until it happens, except for a property with observers
  /// of its own and a registration that asked for `.old`: its whole value
  /// is kept across the mutation (a fold may come after it). The mutation
  /// of such a property copies the value already, as it goes through the
  /// observers (886 thousand instructions an append at a million elements,
  /// with or without the value kept).
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func notifyingCollectionChange<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    shape: ChangeShape,
    mayNest: Bool,
    value: (Object) -> Value,
    elements: (Value) -> Value,
    change: (Object) -> Void
  ) {
    var old: Value? = nil
    var new: Value? = nil
    guard
      let snapshot = makeCollectionChange(
        object,
        slot: slot,
        shape: shape,
        mayNest: mayNest,
        value: value,
        elements: elements,
        change: change,
        old: &old,
        new: &new
      )
    else { return }
    notify(snapshot, shape: shape, isPrior: false, oldValue: old, newValue: new, from: object)
    endChange(snapshot)
  }

  /// Notifies `snapshot` of a setting from `oldValue` to `newValue`, and
  /// ends the change: a to-many change another change folded into. Out of
  /// line: the common path carries nothing of it.
  @inlinable @inline(never)
  func notifySetting<Value>(_ snapshot: ChangeSnapshot, oldValue: Value?, newValue: Value?, from object: AnyObject) {
    let setting = ChangeShape(kind: .setting, indexRanges: nil)
    notify(snapshot, shape: setting, isPrior: false, oldValue: oldValue, newValue: newValue, from: object)
    endChange(snapshot)
  }

  /// The change of ``notifyingCollectionChange(_:slot:shape:mayNest:value:elements:change:)``
  /// before its notifications: makes it, reads into `old` and `new` the
  /// values the registrations asked for, and gives the registrations to
  /// notify, or `nil` when there is nothing left to notify — also when
  /// another change of the key folded into it: it notifies the setting
  /// itself then. A snapshot it gives must be ended with ``endChange(_:)``.
  #if DEBUG
    @inlinable @inline(never)
  #else
    @inlinable @inline(__always)
  #endif
  func makeCollectionChange<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    shape: ChangeShape,
    mayNest: Bool,
    value: (Object) -> Value,
    elements: (Value) -> Value,
    change: (Object) -> Void,
    old: inout Value?,
    new: inout Value?
  ) -> ChangeSnapshot? {
    guard !isDeinitializing(object), let snapshot = beginChange(ofSlot: slot) else {
      change(object)
      return nil
    }
    old = snapshot.oldValue(of: shape) { elements(value(object)) }
    guard snapshot.hasPrior || mayNest || snapshot.objectHasOpenChanges else {
      // No user code runs inside the change: nothing can fold into it.
      change(object)
      new = snapshot.newValue(of: shape) { elements(value(object)) }
      return snapshot
    }
    let owner = ObjectIdentifier(self)
    if snapshot.objectHasOpenChanges && _KeyValueChangeNesting.find(owner, slot: slot) != nil {
      // The key is changing on this thread: the change folds into that
      // one, and needs no watch of its own.
      _KeyValueChangeNesting.noteFold(of: owner, slot: slot)
      change(object)
      endChange(snapshot)
      return nil
    }
    // A fold in a prior callback comes before the mutation: the value is
    // read then. One by the property's own observers comes after it: the
    // value is kept now.
    let keepsBefore = mayNest && snapshot.wantsOldValue
    var before = keepsBefore ? value(object) : nil
    var made = false
    let folded = _KeyValueChangeNesting.watchingFolds(
      of: owner,
      slot: slot,
      readingBefore: snapshot.wantsOldValue && !keepsBefore,
      readBefore: { before = value(object) }
    ) {
      // A collection is no link a chain walks.
      made = changeInNesting(
        object, slot: slot, snapshot, shape: shape, oldValue: old, holdsReplacedLink: false,
        readingReplaced: value, change: change
      )
    }
    guard made else {
      endChange(snapshot)
      return nil
    }
    guard !folded else {
      let whole = snapshot.newValue(of: ChangeShape(kind: .setting, indexRanges: nil)) { value(object) }
      notifySetting(snapshot, oldValue: before, newValue: whole, from: object)
      return nil
    }
    new = snapshot.newValue(of: shape) { elements(value(object)) }
    return snapshot
  }
}
