/// The registrations of one observed object, filed by key: a list per slot
/// (kept in the storage's lock line, handed in as `slots`), the anchors of
/// derived observations by key path, and classic observers by observer.
///
/// Pure bookkeeping, kept under the storage's lock: its changes never call
/// out and never release anything. They hand back what they took out — the
/// registrations, with the list's reference, and replaced lists in
/// `retired` — for the storage to release after the lock, and say when a
/// slot gains its first registration or loses its last, for the storage's
/// observed-slot mask.
struct RegistrationTable {
  /// What few objects need, made on first use.
  private var rareState: RareState?

  /// The rare part, made if need be.
  var rare: RareState {
    mutating get {
      if let rareState { return rareState }
      let made = RareState()
      rareState = made
      return made
    }
  }

  /// The rare part, if it was ever made.
  var rareIfMade: RareState? { rareState }

  /// What an addition did to the slot's observed bit.
  enum Addition {
    /// Nothing was added: the slot is not one of the object's.
    case refused
    /// Added to a slot that had registrations already, or under a key path.
    case added
    /// Added the slot's first registration: its bit must be set.
    case firstOfSlot(Int)
    /// Added a registration that hears every key: these slots had none
    /// before, and their bits must be set.
    case firstOfSlots([Int])
  }

  /// Adds `registration`, whose reference (`passRetained`) the table takes
  /// unless the addition is refused.
  mutating func add(
    _ registration: Unmanaged<_KeyValueRegistration>,
    slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> Addition {
    let (slot, anchorKeyPath) = Self.filing(of: registration)
    if let anchorKeyPath {
      rare.keyed[anchorKeyPath, default: SlotRegistrations()].append(registration, busy: busy, retired: &retired)
      return .added
    }
    if _KeyValueRegistration.hearsEveryKey(slot) {
      return addToEverySlot(registration, slots: slots, busy: busy, retired: &retired)
    }
    // Slots come from the class's key table, which has `slots.count` of them.
    guard slot >= 0, slot < slots.count else { return .refused }
    return append(registration, to: slot, slots: slots, busy: busy, retired: &retired) ? .firstOfSlot(slot) : .added
  }

  /// Appends `registration` (a reference the slot takes) to `slot`'s
  /// list; returns whether it is the slot's first, whose bit must be set.
  private mutating func append(
    _ registration: Unmanaged<_KeyValueRegistration>,
    to slot: Int,
    slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> Bool {
    let wasEmpty = slots[slot].isEmpty
    slots[slot].append(registration, busy: busy, retired: &retired)
    guard wasEmpty else { return false }
    if slot >= 63 { rare.highSlotsObserved += 1 }
    return true
  }

  /// Files a registration that hears every key in each slot's list, with
  /// a reference for each: the one it was handed, and one more per slot
  /// after the first. A class with no keys refuses it.
  private mutating func addToEverySlot(
    _ registration: Unmanaged<_KeyValueRegistration>,
    slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> Addition {
    guard !slots.isEmpty else { return .refused }
    var firsts: [Int] = []
    for slot in slots.indices
    where append(slot == 0 ? registration : registration.retain(), to: slot, slots: slots, busy: busy, retired: &retired) {
      firsts.append(slot)
    }
    return .firstOfSlots(firsts)
  }

  /// Takes a registration that hears every key out of each slot's list:
  /// the first slot's reference goes to the caller, the others to
  /// `retired`, released after the lock. Returns the slots left empty.
  private mutating func detachFromEverySlot(
    _ registration: Unmanaged<_KeyValueRegistration>,
    slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> (removed: Unmanaged<_KeyValueRegistration>?, unobservedSlots: [Int]) {
    var removed: Unmanaged<_KeyValueRegistration>?
    var unobserved: [Int] = []
    for slot in slots.indices {
      guard let position = slots[slot].position(of: registration) else { continue }
      // Its index differs from list to list: it is found, then named.
      registration._withUnsafeGuaranteedRef { $0.indexInSlot = Int32(position) }
      guard let taken = slots[slot].remove(registration, busy: busy, retired: &retired) else { continue }
      if removed == nil { removed = taken } else { retired.append(taken.takeRetainedValue()) }
      guard slots[slot].isEmpty else { continue }
      if slot >= 63 { rare.highSlotsObserved -= 1 }
      if slot < 63 || rare.highSlotsObserved == 0 { unobserved.append(slot) }
    }
    return (removed, unobserved)
  }

  /// Takes `registration` out and marks it inactive, so that a notification
  /// that starts afterwards cannot call it. Returns it with the list's
  /// reference, or `nil` when it is not here, and the slot whose bit must
  /// be cleared, if its last registration went.
  mutating func detach(
    _ registration: Unmanaged<_KeyValueRegistration>,
    slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> (removed: Unmanaged<_KeyValueRegistration>?, unobservedSlots: [Int]) {
    let (slot, keyPath) = Self.filing(of: registration)
    let removed: Unmanaged<_KeyValueRegistration>
    var unobservedSlots: [Int] = []
    if _KeyValueRegistration.hearsEveryKey(slot) {
      let (taken, emptied) = detachFromEverySlot(registration, slots: slots, busy: busy, retired: &retired)
      guard let taken else { return (nil, []) }
      removed = taken
      unobservedSlots = emptied
    } else if let keyPath {
      guard let rare = rareState,
        let taken = rare.keyed[keyPath]?.remove(registration, busy: busy, retired: &retired)
      else { return (nil, []) }
      if rare.keyed[keyPath]?.isEmpty == true, var emptied = rare.keyed.removeValue(forKey: keyPath),
        let holder = emptied.removeAll()
      {
        retired.append(holder)
      }
      removed = taken
    } else {
      guard slot >= 0, slot < slots.count,
        let taken = slots[slot].remove(registration, busy: busy, retired: &retired)
      else { return (nil, []) }
      removed = taken
      if slots[slot].isEmpty {
        // Slots from 63 on share one bit: it is cleared with the last of them.
        if slot >= 63 { rare.highSlotsObserved -= 1 }
        if slot < 63 || rare.highSlotsObserved == 0 { unobservedSlots = [slot] }
      }
    }
    removed._withUnsafeGuaranteedRef { $0.isActive.store(false, ordering: .releasing) }
    return (removed, unobservedSlots)
  }

  /// Takes every registration out and marks each inactive; returns them,
  /// and the classic observers' filing, to be released after the lock.
  /// The lists go to `retired`.
  mutating func removeAll(
    slots: UnsafeMutableBufferPointer<SlotRegistrations>,
    retired: inout [AnyObject]
  ) -> (registrations: [_KeyValueRegistration], classic: ClassicRegistrations?) {
    let removed = registrations(slots: slots)
    for index in slots.indices {
      if let holder = slots[index].removeAll() { retired.append(holder) }
    }
    var classic: ClassicRegistrations?
    if let rare = rareState {
      retired += rare.keyed.values.compactMap(\.holder)
      rare.keyed = [:]
      rare.highSlotsObserved = 0
      classic = rare.classic
      rare.classic = ClassicRegistrations()
    }
    for registration in removed {
      registration.isActive.store(false, ordering: .releasing)
    }
    return (removed, classic)
  }

  /// The live registrations, slot by slot in registration order, then the
  /// anchors; one that hears every key once, where it is first listed.
  func registrations(slots: UnsafeMutableBufferPointer<SlotRegistrations>) -> [_KeyValueRegistration] {
    var listed = Set<ObjectIdentifier>()
    return (slots.flatMap(\.registrations) + (rareState?.keyed.values.flatMap(\.registrations) ?? [])).filter {
      !_KeyValueRegistration.hearsEveryKey($0.slot) || listed.insert(ObjectIdentifier($0)).inserted
    }
  }

  /// Where `registration` is filed: its slot, and the key path it is filed
  /// under when it is the anchor of a derived observation.
  private static func filing(of registration: Unmanaged<_KeyValueRegistration>) -> (slot: Int, anchorKeyPath: AnyKeyPath?) {
    registration._withUnsafeGuaranteedRef { registration in
      let slot = registration.slot
      return (slot, slot == _KeyValueRegistration.keyPathSlot ? registration.anchorKeyPath : nil)
    }
  }
}
