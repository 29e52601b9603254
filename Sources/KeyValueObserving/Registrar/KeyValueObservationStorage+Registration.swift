// Adding, removing and closing registrations: each runs one change of the
// ``RegistrationTable`` under the lock, keeps the observed-slot mask in step,
// and releases what the table took out after the lock.

extension _KeyValueObservationStorage {
  /// Adds `registration` to its slot; returns `false` (and adds nothing)
  /// once the object has deinitialised.
  ///
  /// Takes the caller's reference: a caller that gives up its own with
  /// `consume` hands the registration to the slot list without a retain.
  @usableFromInline
  func add(_ registration: __owned _KeyValueRegistration) -> Bool {
    var released: [AnyObject] = []
    let added = add(registration, releasingInto: &released)
    // What the table let go of is released here, after the lock.
    _ = released
    return added
  }

  /// ``add(_:)`` for a caller that holds a lock of its own (a derived
  /// observation's): what the table lets go of (lists retired during
  /// changes, and the registration itself when it is refused) goes into
  /// `released`, for the caller to release after its lock. A release may
  /// run any deinit, which may take that same lock.
  func add(_ registration: __owned _KeyValueRegistration, releasingInto released: inout [AnyObject]) -> Bool {
    // The list takes this reference; the closure below captures only the
    // unmanaged handle, so nothing retains the registration on the way.
    let handed = Unmanaged.passRetained(consume registration)
    let (added, retired) = mutating { state, slots, busy, replaced -> Bool in
      guard !isClosed else { return false }
      switch state.table.add(handed, slots: slots, busy: busy, retired: &replaced) {
      case .refused: return false
      case .added: return true
      case .firstOfSlot(let slot):
        markObserved(slot: slot, true)
        return true
      case .firstOfSlots(let slots):
        for slot in slots { markObserved(slot: slot, true) }
        return true
      }
    }
    released += retired
    if !added { released.append(handed.takeRetainedValue()) }
    return added
  }

  /// Removes `registration`; returns whether it was registered. The
  /// registration is released after the lock: its callback's captures may
  /// run any code when they deinitialise.
  ///
  /// For a caller that removes each of its registrations at most once (a
  /// derived observation's dependencies): the registration is alive here,
  /// as the slot list owns it until this removal, unless the object
  /// deinitialised, in which case the storage is closed and the pointer is
  /// not touched. Tokens use ``remove(claimingFrom:)``.
  @discardableResult
  func remove(_ registration: Unmanaged<_KeyValueRegistration>) -> Bool {
    let (removed, released) = mutating { state, slots, busy, replaced -> Unmanaged<_KeyValueRegistration>? in
      guard !isClosed else { return nil }
      return detach(registration, from: &state, slots, busy: busy, replaced: &replaced)
    }
    _ = released
    return ended(removed)
  }

  /// ``remove(_:)`` for a caller that holds a lock of its own (a model
  /// graph's), of a registration whose end tells nobody anything: the
  /// registration, with the list's reference, and what the table lets go
  /// of go into `released`, for the caller to release after its lock.
  /// Returns whether it was registered.
  @discardableResult
  func remove(_ registration: Unmanaged<_KeyValueRegistration>, releasingInto released: inout [AnyObject]) -> Bool {
    let (removed, retired) = mutating { state, slots, busy, replaced -> Unmanaged<_KeyValueRegistration>? in
      guard !isClosed else { return nil }
      return detach(registration, from: &state, slots, busy: busy, replaced: &replaced)
    }
    released += retired
    guard let removed else { return false }
    released.append(removed.takeRetainedValue())
    return true
  }

  /// Removes the registration whose address `token` holds, and clears
  /// `token`, both under the lock: of several threads invalidating one token
  /// at once, exactly one finds the address, and none touches the
  /// registration after another removed it. Does nothing when `token` is
  /// already zero.
  func remove(claimingFrom token: borrowing AtomicUInt) {
    let (removed, released) = mutating { state, slots, busy, replaced -> Unmanaged<_KeyValueRegistration>? in
      // Only this lock changes the word once the token exists, so a load
      // and a store do what an exchange would. The word is cleared last,
      // releasing: a racing `invalidate()` that reads it clear (acquiring)
      // and returns sees the registration inactive, and a change on its
      // thread skips it.
      guard let pointer = UnsafeRawPointer(bitPattern: token.load(ordering: .relaxed)) else { return nil }
      defer { token.store(0, ordering: .releasing) }
      guard !isClosed else { return nil }
      return detach(Unmanaged.fromOpaque(pointer), from: &state, slots, busy: busy, replaced: &replaced)
    }
    _ = released
    ended(removed)
  }

  /// Tells `removed`, if any, that it was removed, then gives up the list's
  /// reference to it that ``detach(_:from:_:busy:replaced:)`` handed over;
  /// returns whether there was one.
  @discardableResult
  func ended(_ removed: Unmanaged<_KeyValueRegistration>?) -> Bool {
    guard let removed else { return false }
    removed._withUnsafeGuaranteedRef { $0.registrationEnded() }
    removed.release()
    return true
  }

  /// Takes `registration` out of the table, under the lock, and clears its
  /// slot's observed bit when it was the last; returns it with the list's
  /// reference, which the caller must release, or `nil` when it is not
  /// registered.
  func detach(
    _ registration: Unmanaged<_KeyValueRegistration>,
    from state: inout State,
    _ slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    busy: Bool,
    replaced: inout [AnyObject]
  ) -> Unmanaged<_KeyValueRegistration>? {
    let (removed, unobservedSlots) = state.table.detach(registration, slots: slots, busy: busy, retired: &replaced)
    for slot in unobservedSlots { markObserved(slot: slot, false) }
    return removed
  }

  /// Ends every registration: called once, when the observed object
  /// deinitialises. Later additions are refused.
  func close() {
    let (removed, released) = mutating { state, slots, _, replaced in
      closed.store(true, ordering: .releasing)
      observedSlots.store(0, ordering: .releasing)
      return state.table.removeAll(slots: slots, retired: &replaced)
    }
    // Only will-changes never closed are left in the count: a setter's
    // change holds the object.
    let unbalanced = openChanges.load(ordering: .relaxed)
    if unbalanced > 0 {
      reportProblem(
        .unclosedWillChange,
        "an object of type \(objectType) deinitialised with \(unbalanced) willChangeValue call(s) "
          + "never closed by didChangeValue"
      )
    }
    // The registrations, their callbacks and whatever those capture are
    // released here, after the lock: their deinitialisers may run any code.
    _ = released
    for registration in removed.registrations {
      registration.registrationClosed()
    }
  }

  /// The live registrations, slot by slot in registration order.
  func liveRegistrations() -> [_KeyValueRegistration] {
    withState { state, slots in state.table.registrations(slots: slots) }
  }
}
