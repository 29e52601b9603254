// The parts of the change path that need not share a file with the loop
// (KeyValueObservationStorage+Notification.swift), whose @_transparent
// functions must, to inline there: the hand-off to a registration that is
// not a closure's, the release loop's hand-off, and the loop with this
// thread's tracking hidden.

extension _KeyValueObservationStorage {
  /// Hands `change` to a registration of any kind; ``send(_:to:from:)``
  /// calls it for those that are not a closure's.
  ///
  /// A classic observer, or one that hears every key, gets the values boxed here, where their type is
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
    from object: AnyObject,
    slot: Int16
  ) {
    switch registration.receiver {
    case .handler:
      unsafeDowncast(registration, to: _KeyValueHandlerRegistration<Value>.self).handler(object, change)
    case .typed:
      unsafeDowncast(registration, to: _KeyValueValueRegistration<Value>.self).receive(change, from: object)
    case .dictionary:
      sendBoxed(change, registration, from: object, slot: slot)
    case .forwarding:
      registration.forwardChange(isPrior: change.isPrior, from: object)
    }
  }

  /// Hands `change` to a classic observer or a registration that hears
  /// every key, its values boxed here, where their type is known, and
  /// borrowed (``_KeyValueBorrowedAny``); the dictionary is built out of
  /// line.
  ///
  /// Inlinable, so that a client specialises the boxing for its value
  /// type, but not inlined: inlined, the boxing and the dynamic call grew
  /// the change loop, which the optimiser then kept out of every setter
  /// (a one-observer write went from 310 to 418 instructions; now 339).
  @inlinable @inline(never)
  func sendBoxed<Value>(
    _ change: KeyValueObservedChange<Value>,
    _ registration: _KeyValueRegistration,
    from object: AnyObject,
    slot: Int16
  ) {
    let valuesAreEqual =
      registration.slot == _KeyValueRegistration.everyKeyComparingSettingsSlot && change.kind == .setting
      && !change.isPrior && areEqualIfEquatable(change.oldValue, change.newValue)
    _KeyValueBorrowedAny.with(change.oldValue, change.newValue) { oldValue, newValue in
      unsafeDowncast(registration, to: _KeyValueErasedRegistration.self).receive(
        kind: change.kind,
        oldValue: oldValue,
        newValue: newValue,
        indexRanges: change.positions,
        isPrior: change.isPrior,
        from: object,
        slot: Int(slot),
        valuesAreEqual: valuesAreEqual
      )
    }
  }

  /// ``notify(_:shape:isPrior:oldValue:newValue:from:)`` with this
  /// thread's tracking scope hidden.
  @inlinable @inline(never)
  func notifyHidingTracking<Value>(
    _ snapshot: ChangeSnapshot,
    shape: ChangeShape,
    isPrior: Bool,
    oldValue: Value?,
    newValue: Value?,
    from object: AnyObject
  ) {
    let hidden = _KeyValueAccessTracking.suspendTracking()
    deliverAll(snapshot, shape: shape, isPrior: isPrior, oldValue: oldValue, newValue: newValue, from: object)
    _KeyValueAccessTracking.resumeTracking(hidden)
  }

  /// The release loop's hand-off to one registration: `change`, made
  /// before the loop, as it is when the registration asked for every
  /// value the change holds, or trimmed to those it asked for; a prior one
  /// only if it asked for it. `wanted` holds the options bits some
  /// registration of the change asked for (``ChangeSnapshot/wants``).
  @inlinable @inline(__always)
  func deliver<Value>(
    _ change: KeyValueObservedChange<Value>,
    wanted: UInt8,
    slot: Int16,
    to registration: _KeyValueRegistration,
    from object: AnyObject
  ) {
    let options = registration.options
    guard !change.isPrior || options.contains(.prior) else { return }
    // The values' bits (`.new`, `.old`) some registration wanted and this
    // one did not: none, as when every registration asks alike.
    guard wanted & ~registration.bits & 0b0011 != 0 else {
      return send(change, to: registration, from: object, slot: slot)
    }
    send(
      KeyValueObservedChange(
        kind: change.kind,
        newValue: change.newValue,
        oldValue: change.oldValue,
        positions: change.positions,
        isPrior: change.isPrior,
        trimmedTo: options
      ),
      to: registration,
      from: object,
      slot: slot
    )
  }
}
