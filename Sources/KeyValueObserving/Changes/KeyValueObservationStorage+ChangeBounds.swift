// The start and end of a change: the snapshot of the registrations to
// notify, the change flags that keep their lists from changing under it,
// the count of the object's changes open in threads' records, and the
// release of lists retired meanwhile.

extension _KeyValueObservationStorage {
  /// The registrations to notify for a change of `slot`, or `nil` when there
  /// are none. A snapshot must be ended with ``endChange(_:)``.
  @usableFromInline
  func beginChange(ofSlot slot: Int) -> ChangeSnapshot? {
    let slots = lockState()
    defer { unlockState() }
    guard slot < slots.count, !slots[slot].isEmpty else { return nil }
    // The flag first: taken after the list, it would make the list a
    // copy, retained across the flag's atomics.
    let record = takeDeliveryFlag()
    var snapshot = slots[slot].snapshot(for: record)
    snapshot.objectHasOpenChanges = openChanges.load(ordering: .relaxed) != 0
    snapshot.changedSlot = Int16(truncatingIfNeeded: slot)
    return snapshot
  }

  /// Counts a change of this object into ``openChanges`` (`1`) while it is
  /// in its thread's record, or out of it (`-1`).
  @usableFromInline
  func countOpenChange(_ delta: Int32) {
    openChanges.add(delta, ordering: .relaxed)
  }

  /// The anchors of the derived observations of `keyPath`, or `nil` when
  /// there are none. A snapshot must be ended with ``endChange(_:)``.
  func beginChange(of keyPath: AnyKeyPath) -> ChangeSnapshot? {
    withState { state, _ in
      guard let anchors = state.table.rareIfMade?.keyed[keyPath], !anchors.isEmpty else { return nil }
      let record = takeDeliveryFlag()
      return anchors.snapshot(for: record)
    }
  }

  /// The registrations to notify for a manual change of `slot`, which may
  /// last across calls: what holds them is held, not borrowed.
  func beginLastingChange(ofSlot slot: Int) -> (holder: AnyObject, snapshot: ChangeSnapshot)? {
    withState { _, slots in
      guard slot < slots.count, !slots[slot].isEmpty else { return nil }
      var snapshot = slots[slot].snapshot(for: nil)
      snapshot.changedSlot = Int16(truncatingIfNeeded: slot)
      // The snapshot's reference becomes the tuple's.
      return (snapshot.holder.takeRetainedValue(), snapshot)
    }
  }

  /// Ends a change started by ``beginChange(ofSlot:)`` or
  /// ``beginChange(of:)``: its lists may be changed again, and released.
  @inlinable
  func endChange(_ snapshot: ChangeSnapshot) {
    guard let record = snapshot.record else {
      snapshot.holder.release()
      return
    }
    // A thread retiring a list meanwhile sets the other flag, then reads
    // this one (see `mutating`): with a full barrier on each side, one of
    // the two sees the other's store and releases the list. The retiring
    // side, the rare one, makes this side's (`AsymmetricFence`), unless the
    // kernel has no such barrier: then the store is sequentially consistent.
    if fencesAsymmetrically {
      record.store(false, ordering: .releasing)
      AsymmetricFence.light()
    } else {
      record.store(false, ordering: .sequentiallyConsistent)
    }
    if hasRetiredListsNow {
      releaseRetiredLists()
    }
  }

  @inlinable
  var hasRetiredListsNow: Bool { hasRetiredLists.load(ordering: .sequentiallyConsistent) }

  /// Releases the lists replaced during changes, and the registrations
  /// removed during them, once none is under way.
  @usableFromInline
  func releaseRetiredLists() {
    let released: [AnyObject] = withState { state, _ in
      // Sequentially consistent: a change that cleared its flag before
      // this one ended may not have released its lock-free store to an
      // acquiring load here yet.
      guard !isDelivering(.sequentiallyConsistent), let rare = state.table.rareIfMade else { return [] }
      hasRetiredLists.store(false, ordering: .relaxed)
      defer { rare.retired = [] }
      return rare.retired
    }
    _ = released
  }
}
