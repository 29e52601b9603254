public import Synchronization

// The change path: a change made within one call — a setter's assignment,
// a collection proxy's mutation — and the one loop every change's
// notifications go through, manual ones included.
//
// Its functions, and the setter's that lead to them, are inlined in an
// unoptimised build too (`@_transparent` under `DEBUG`): a handler that
// changes the key it observes recurses through all of them, and
// unoptimised, each frame keeps a slot for every value it makes, so that a
// level took 5.4 KB of stack. Optimised, they keep the attributes they were
// measured with: forced inlining before the optimiser runs made changes
// through key-value coding 3× slower.

extension _KeyValueObservationStorage {
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
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
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
    let old = snapshot.oldValue(of: shape) { oldValue(object) }
    if snapshot.hasPrior || mayNest || _KeyValueChangeNesting.openManualChanges.load(ordering: .relaxed) != 0 {
      guard changeInNesting(object, slot: slot, snapshot, shape: shape, oldValue: old, change: change) else {
        return
      }
    } else {
      change(object)
    }
    let new = snapshot.newValue(of: shape) { newValue(object) }
    notify(snapshot, shape: shape, isPrior: false, oldValue: old, newValue: new, from: object)
  }

  /// Makes the change of ``notifyingChange(_:slot:shape:mayNest:oldValue:change:newValue:)``
  /// where user code can run inside it: recorded in the thread's nesting,
  /// after the prior notifications. Returns `false` when the same key of
  /// this object is already changing on this thread: the change is made,
  /// and the outer change reports the final value.
  ///
  /// Out of line in a debug build, so that the frame the common path
  /// notifies from stays small there.
  #if DEBUG
    @inlinable @inline(never)
  #else
    @inlinable @inline(__always)
  #endif
  func changeInNesting<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    _ snapshot: ChangeSnapshot,
    shape: ChangeShape,
    oldValue: Value?,
    change: (Object) -> Void
  ) -> Bool {
    let changed: Void? = _KeyValueChangeNesting.withChange(of: self, slot: slot) {
      if snapshot.hasPrior {
        notify(snapshot, shape: shape, isPrior: true, oldValue: oldValue, newValue: nil, from: object)
      }
      change(object)
    }
    guard changed != nil else {
      change(object)
      return false
    }
    return true
  }

  /// Sends the notifications of one change, shaped `shape`, to the live
  /// registrations of `snapshot`: its prior ones (`isPrior`, to those that
  /// asked for `.prior`), or the ones after it. Each gets the values it
  /// asked for. Every change's notifications go through this loop.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable
  #endif
  func notify<Value>(
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
        newValue: newValue,
        oldValue: oldValue,
        indexRanges: shape.indexRanges,
        isPrior: isPrior,
        trimmedTo: options
      )
      send(change, to: registration, from: object)
    }
  }

  /// Hands `change` to one registration of a key whose values are `Value`.
  ///
  /// A closure registration's handler is called directly, here; the other
  /// kinds through ``sendToReceiver(_:_:from:)``, out of line in a debug
  /// build, so that the frame a handler runs under stays small there, where
  /// a callback that changes the key again recurses through it.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func send<Value>(
    _ change: KeyValueObservedChange<Value>,
    to registration: _KeyValueRegistration,
    from object: AnyObject
  ) {
    if registration.receiver == .handler {
      unsafeDowncast(registration, to: _KeyValueHandlerRegistration<Value>.self).handler(object, change)
    } else {
      sendToReceiver(change, registration, from: object)
    }
  }

  /// Hands `change` to a registration of any kind; ``send(_:to:from:)``
  /// calls it for those that are not a closure's.
  ///
  /// A classic observer gets the values boxed here, where their type is
  /// known, so that no generic code runs for its dictionary. A dependency
  /// of a derived key only learns that the key changes; any other
  /// registration receives the change through its class's method.
  #if DEBUG
    @inlinable @inline(never)
  #else
    @inlinable @inline(__always)
  #endif
  func sendToReceiver<Value>(
    _ change: KeyValueObservedChange<Value>,
    _ registration: _KeyValueRegistration,
    from object: AnyObject
  ) {
    switch registration.receiver {
    case .handler:
      unsafeDowncast(registration, to: _KeyValueHandlerRegistration<Value>.self).handler(object, change)
    case .typed:
      unsafeDowncast(registration, to: _KeyValueValueRegistration<Value>.self).receive(change, from: object)
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
