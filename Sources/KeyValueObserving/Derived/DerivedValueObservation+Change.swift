// A change of what a derived observation depends on, as the thread that
// makes it sees it: the will joins or opens the change in the thread's
// record (see `DerivedChange`), the did of its last will reads the value
// again and notifies; a tracked closure's run may instead be scheduled
// (see `TrackedObservation`). One path for both kinds of derived
// observation (see `DerivedValueObservation`).

extension DerivedValueObservation {
  /// A dependency is about to change on `object`, as `sender` says: joins
  /// the change open on this thread, or opens one, keeping the old value
  /// for its did, and sends the prior notification.
  @inlinable
  func willChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    // A change of what the value no longer depends on opens nothing: its
    // did finds no change, and its registration gone, and only closes.
    guard isDependency(sender) else { return }
    let atChainEnd = isChainEnd(sender)
    if let open = openChange() {
      open._withUnsafeGuaranteedRef { $0.join(from: ObjectIdentifier(sender)) }
      return
    }
    let wantsOld = options.contains(.old)
    let wantsPrior = options.contains(.prior)
    let root = wantsOld || wantsPrior ? liveRoot : nil
    var oldValue: Value? = nil
    if let root {
      let value = (atChainEnd ? valueAtChainEnd(from: sender, on: object) : nil) ?? currentValue(root)
      if wantsOld { oldValue = value }
    }
    // Each branch opens its change as it holds it: the own change
    // borrowed from the observation, another one owned here.
    let ownChange = ownChange()
    if ownChangeThread.compareExchange(expected: 0, desired: currentThreadIdentity(), ordering: .acquiring).exchanged {
      ownChange._withUnsafeGuaranteedRef { open($0, from: sender, oldValue: oldValue) }
    } else {
      sharedChangesOpen.add(1, ordering: .relaxed)
      open(DerivedChange(sharing: ownChange.takeUnretainedValue()), from: sender, oldValue: oldValue)
    }
    guard wantsPrior, !isEnded, let root else { return }
    deliver(KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: oldValue, isPrior: true), from: root)
  }

  /// Opens `change` in this thread's record with `sender`'s will.
  @inlinable @inline(__always)
  func open(_ change: DerivedChange<Value>, from sender: _KeyValueRegistration, oldValue: Value?) {
    change.open(from: ObjectIdentifier(sender), oldValue: oldValue)
    _KeyValueChangeNesting.open(change)
  }

  /// A dependency changed on `object`, as `sender` says: the did of the
  /// change's last will reads the value again, re-registers with what it
  /// depends on now, and notifies. A did with no will here notifies
  /// without an old value, unless its registration ended: that one only
  /// closes.
  ///
  /// The change stays open while the value is read again, so that a
  /// change the read makes itself (a tracked closure that writes a key it
  /// reads) joins it and reads nothing again.
  @inlinable
  func didChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    // Finished in a function of its own, whose frame is gone before the
    // handler runs: a handler that changes what it observes recurses with
    // a smaller frame per level, in a debug build above all.
    guard let (root, newValue, oldValue) = finishChange(from: sender, on: object) else { return }
    deliver(
      KeyValueObservedChange(kind: .setting, newValue: newValue, oldValue: oldValue, isPrior: false, trimmedTo: options),
      from: root
    )
  }

  /// The work of ``didChange(from:on:)`` up to the handler: the values of
  /// the change to hand it, with what they were read from, or `nil` when
  /// there is none.
  /// Inlined where optimised (a debug build keeps the frame apart).
  @inlinable @inline(__always)
  func finishChange(
    from sender: _KeyValueRegistration,
    on object: AnyObject?
  ) -> (Root, Value, Value?)? {
    let atChainEnd = isChainEnd(sender)
    let open = openChange()
    if let open {
      guard open._withUnsafeGuaranteedRef({ $0.isLastWill(of: ObjectIdentifier(sender)) }) else {
        _ = open._withUnsafeGuaranteedRef { close($0, from: sender) }
        return nil
      }
    } else {
      guard sender.isLive else { return nil }
      // A manual did of the observed key path itself, with no will open
      // on this thread: notifies nothing, as for a stored key.
      guard sender !== self else {
        reportUnmatchedManualDid()
        return nil
      }
    }
    let when = whenToRun()
    if when != .now {
      if let open { _ = open._withUnsafeGuaranteedRef { close($0, from: sender) } }
      if when == .later { scheduleRun() }
      return nil
    }
    var newValue: Value? = nil
    if !isEnded, let root = liveRoot {
      let value = (atChainEnd ? valueAtChainEnd(from: sender, on: object) : nil) ?? refresh(root)
      keptValue?.keep(value)
      newValue = value
    }
    var oldValue: Value? = nil
    if let open {
      guard let finished = open._withUnsafeGuaranteedRef({ close($0, from: sender) }) else { return nil }
      oldValue = finished
    }
    guard !isEnded, let newValue, let root = liveRoot else { return nil }
    return (root, newValue, oldValue)
  }

  /// Takes `sender`'s will out of `change`; when that was its last, closes
  /// the change and gives the old value it kept (`nil` inside: none kept),
  /// or `nil` while other wills wait.
  @inlinable @inline(__always)
  func close(_ change: DerivedChange<Value>, from sender: _KeyValueRegistration) -> Value?? {
    guard change.close(from: ObjectIdentifier(sender)) else { return nil }
    let oldValue = change.oldValue
    change.oldValue = nil
    // Asked first: closing releases a change made for this thread.
    let isOwn = ownChangeMade.load(ordering: .relaxed) == UInt(bitPattern: Unmanaged.passUnretained(change).toOpaque())
    _KeyValueChangeNesting.close(change)
    if isOwn {
      ownChangeThread.store(0, ordering: .releasing)
    } else {
      sharedChangesOpen.subtract(1, ordering: .relaxed)
    }
    return .some(oldValue)
  }

  /// The change of this observation open on this thread, if any: found
  /// without walking the thread's record when it is the own change, or
  /// when no change made for a thread is open anywhere, so that N
  /// observations of one key cost O(N) at a will and its did, not O(N²).
  @inlinable
  func openChange() -> Unmanaged<DerivedChange<Value>>? {
    let thread = currentThreadIdentity()
    // Made before any change of this observation was opened: none is
    // open while it is not.
    guard let ownChange = ownChangeIfMade else { return nil }
    if ownChangeThread.load(ordering: .relaxed) == thread {
      // Open here; its task is this thread's to read. Another task's own
      // change (suspended on this thread) may hide one of this task's.
      if ownChange._withUnsafeGuaranteedRef({ $0.task }) == _KeyValueChangeNesting.currentTaskIdentity() {
        return ownChange
      }
    } else if sharedChangesOpen.load(ordering: .relaxed) == 0 {
      return nil
    }
    let name = ownChange._withUnsafeGuaranteedRef(ObjectIdentifier.init)
    guard let frame = _KeyValueChangeNesting.find(name, slot: DerivedChange<Value>.slot) else {
      return nil
    }
    // Only this observation's changes are filed under it.
    return unsafeBitCast(frame.pointee.pending.unsafelyUnwrapped, to: Unmanaged<DerivedChange<Value>>.self)
  }
}

extension DerivedValueObservation {
  /// The own change (see ``DerivedObservationBase/ownChangeMade``), if a
  /// will made it.
  @inlinable
  var ownChangeIfMade: Unmanaged<DerivedChange<Value>>? {
    ownChangeMade.loadObject(DerivedChange<Value>.self, ordering: .acquiring)
  }

  /// The own change, made if no will made it yet. Two threads may make one
  /// at once; the first one kept is the one used. Unmanaged: the
  /// observation keeps it, and a change borrows it without a retain.
  @inlinable
  func ownChange() -> Unmanaged<DerivedChange<Value>> {
    if let made = ownChangeIfMade { return made }
    return makeOwnChange()
  }

  @usableFromInline
  func makeOwnChange() -> Unmanaged<DerivedChange<Value>> {
    let made = Unmanaged.passRetained(DerivedChange<Value>())
    let (stored, current) = ownChangeMade.storeObjectIfNone(made, ordering: .acquiringAndReleasing)
    if !stored { made.release() }
    return current
  }
}
