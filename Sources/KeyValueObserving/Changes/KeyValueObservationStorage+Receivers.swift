// The change path's hand-off to a registration that is not a closure's:
// out of line in a debug build already, so it lives apart from the loop
// (KeyValueObservationStorage+Notification.swift), whose @_transparent
// functions must share one file to inline there.

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
  /// every key, its values boxed here, where their type is known; the
  /// dictionary is built out of line.
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
    unsafeDowncast(registration, to: _KeyValueErasedRegistration.self).receive(
      kind: change.kind,
      oldValue: change.oldValue.map { $0 as Any },
      newValue: change.newValue.map { $0 as Any },
      indexRanges: change.positions,
      isPrior: change.isPrior,
      from: object,
      slot: Int(slot)
    )
  }
}
