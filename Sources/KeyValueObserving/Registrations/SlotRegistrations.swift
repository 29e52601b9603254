/// The registrations of one key of one object, in registration order.
///
/// A key's first registration is held directly, with no list: most keys
/// have one observer, and a first observation of an object or of another
/// key then allocates nothing for the key. The second makes a list, kept
/// from then on, also when its last registration goes: a key observed twice
/// is likely observed again.
///
/// Removal from a list leaves a hole (`nil`) so that it is O(1); the holes
/// are squeezed out once they outnumber the live entries, which keeps
/// removal amortised O(1) and the list at most twice the live count.
///
/// A change reads the registrations after the storage's lock is released,
/// without retaining them: it borrows what held them when it started, the
/// list or the lone registration (see ``ChangeSnapshot``). One rule keeps
/// that safe, whatever the change's callbacks do to the slot: a holder the
/// slot lets go of while a change may be under way is retired — kept until
/// none is — by ``retire(_:busy:retired:)``, the one place that decides it.
/// A list a change may be reading is never changed in place: it is copied,
/// and the old one retired; a lone registration that becomes the first
/// entry of a list, or is removed, is retired as the holder it was.
struct SlotRegistrations {
  /// What holds the key's registrations; `nil` until the key is first
  /// observed, and after its lone registration goes.
  private var held: Held?

  /// The key's lone registration, or its list.
  private enum Held {
    case one(_KeyValueRegistration)
    case list(RegistrationList)
  }

  var isEmpty: Bool { liveCount == 0 }

  /// How many registrations are live.
  var liveCount: Int {
    switch held {
    case nil: 0
    case .one: 1
    case .list(let list): Int(list.withUnsafeMutablePointerToHeader { $0.pointee.liveCount })
    }
  }

  /// The first live registration, if any.
  var first: _KeyValueRegistration? {
    switch held {
    case nil: nil
    case .one(let registration): registration
    case .list(let list): list.liveRegistrations.first
    }
  }

  /// The live registrations, in order.
  var registrations: [_KeyValueRegistration] {
    switch held {
    case nil:
      []
    case .one(let registration):
      [registration]
    case .list(let list):
      list.liveRegistrations
    }
  }

  /// What a change needs to know. With a `record`, the change borrows the
  /// list or the lone registration while the record is active; without
  /// one it owns a reference, which
  /// ``_KeyValueObservationStorage/endChange(_:)`` gives back.
  ///
  /// Always inlined: built by a call, the snapshot came back through
  /// memory written field by field and was read back in wider loads, which
  /// the processor cannot forward from those stores; an observed write
  /// took 6% longer for it, at the same instruction count.
  @inline(__always)
  func snapshot(for record: AtomicFlagPointer?) -> ChangeSnapshot {
    // Unmanaged from the start: the table keeps what it holds alive under
    // the lock, and a retain here would be one more atomic on every write.
    switch held.unsafelyUnwrapped {
    case .one(let registration):
      let holder = Unmanaged<AnyObject>.passUnretained(registration)
      return ChangeSnapshot(
        holder: record == nil ? holder.retain() : holder,
        entries: nil,
        count: 1,
        record: record,
        wants: registration.bits
      )
    case .list(let list):
      let (header, entries) = list.withUnsafeMutablePointers { header, elements in
        // Written only when it changes: in the steady state a change writes
        // nothing but its change flag, so writers of different objects
        // never contend for a cache line the allocator made them share.
        if !header.pointee.isShared { header.pointee.isShared = true }
        return (header.pointee, UnsafeRawPointer(elements))
      }
      let holder = Unmanaged<AnyObject>.passUnretained(list)
      return ChangeSnapshot(
        holder: record == nil ? holder.retain() : holder,
        entries: entries,
        count: header.count,
        record: record,
        wants: header.wantedOptions
      )
    }
  }

  /// Appends `registration`, whose reference (`passRetained`) the slot
  /// takes over. `busy`: whether a change may be reading.
  mutating func append(
    _ registration: Unmanaged<_KeyValueRegistration>,
    busy: Bool,
    retired: inout [AnyObject]
  ) {
    switch held {
    case nil:
      registration._withUnsafeGuaranteedRef { $0.indexInSlot = 0 }
      held = .one(registration.takeRetainedValue())
      return
    case .one(let first):
      // A change reading the slot borrowed the registration as its holder;
      // in the list it could be removed and released under the change.
      let list = RegistrationList.make(capacity: 2)
      list.withUnsafeMutablePointers { header, elements in
        elements.initialize(to: first)
        header.pointee.count = 1
        header.pointee.tally(first, by: 1)
      }
      Self.retire(first, busy: busy, retired: &retired)
      held = .list(list)
    case .list:
      break
    }
    withList { list in
      let used = list.used
      Self.makeWritable(&list, minimumCapacity: used + 1, busy: busy, retired: &retired)
      registration._withUnsafeGuaranteedRef { registration in
        registration.indexInSlot = Int32(used)
        list.withUnsafeMutablePointerToHeader { $0.pointee.tally(registration, by: 1) }
      }
      list.withUnsafeMutablePointers { header, elements in
        (elements + used).initialize(to: registration.takeRetainedValue())
        header.pointee.count = Int32(used + 1)
      }
    }
  }

  /// Removes `registration` if it is here and hands back the slot's
  /// reference to it (so that the caller can release it after the lock), or
  /// returns `nil` when it was not here.
  mutating func remove(
    _ registration: Unmanaged<_KeyValueRegistration>,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> Unmanaged<_KeyValueRegistration>? {
    switch held {
    case nil:
      return nil
    case .one(let only):
      guard Unmanaged.passUnretained(only).toOpaque() == registration.toOpaque() else { return nil }
      // A change under way may be calling it, borrowed.
      Self.retire(only, busy: busy, retired: &retired)
      only.indexInSlot = -1
      let taken = registration.retain()
      held = nil
      return taken
    case .list:
      return withList { list in Self.remove(registration, from: &list, busy: busy, retired: &retired) }
    }
  }

  /// Where `registration` is among the entries, found by identity: for
  /// one filed in many slots, whose ``_KeyValueRegistration/indexInSlot``
  /// names its place in one of them only.
  func position(of registration: Unmanaged<_KeyValueRegistration>) -> Int? {
    switch held {
    case nil:
      return nil
    case .one(let only):
      return Unmanaged.passUnretained(only).toOpaque() == registration.toOpaque() ? 0 : nil
    case .list(let list):
      return (0..<list.used).first { list.address(at: $0) == registration.toOpaque() }
    }
  }

  /// Takes every registration out, leaving the slot empty; returns what
  /// held them.
  mutating func removeAll() -> AnyObject? {
    defer { held = nil }
    return holder
  }

  /// What holds the registrations: the list or the lone registration.
  var holder: AnyObject? {
    switch held {
    case nil: nil
    case .one(let registration): registration
    case .list(let list): list
    }
  }

  /// Runs `body` on the list, which the slot lets go of meanwhile, so that
  /// `isKnownUniquelyReferenced` sees only the references of changes.
  private mutating func withList<Result>(_ body: (inout RegistrationList) -> Result) -> Result {
    // Moved out, not copied: a copy would be a retain and a release.
    var taken: Held? = nil
    swap(&taken, &held)
    guard case .list(var list) = consume taken else { preconditionFailure("the slot holds no list") }
    defer { held = .list(list) }
    return body(&list)
  }

  /// ``remove(_:busy:retired:)`` from a list.
  private static func remove(
    _ registration: Unmanaged<_KeyValueRegistration>,
    from list: inout RegistrationList,
    busy: Bool,
    retired: inout [AnyObject]
  ) -> Unmanaged<_KeyValueRegistration>? {
    let index = registration._withUnsafeGuaranteedRef { Int($0.indexInSlot) }
    let used = list.used
    guard index >= 0, index < used, list.address(at: index) == registration.toOpaque() else { return nil }
    makeWritable(&list, minimumCapacity: used, busy: busy, retired: &retired)
    list.withUnsafeMutablePointers { header, elements in
      // The entry's reference moves to the caller: the entry is overwritten
      // with a hole, without a release.
      UnsafeMutableRawPointer(elements + index).storeBytes(of: nil, as: UnsafeRawPointer?.self)
      // Trailing holes are dropped at once, so that a key observed and
      // released over and over keeps reusing the same entry.
      while header.pointee.count > 0 && elements[Int(header.pointee.count) - 1] == nil {
        header.pointee.count -= 1
      }
    }
    registration._withUnsafeGuaranteedRef { $0.indexInSlot = -1 }
    let liveCount = list.withUnsafeMutablePointerToHeader { header in
      registration._withUnsafeGuaranteedRef { header.pointee.tally($0, by: -1) }
      // Keep the buffer when it empties: a key observed twice is likely
      // observed again.
      if header.pointee.liveCount == 0 { header.pointee.count = 0 }
      return Int(header.pointee.liveCount)
    }
    if liveCount > 0 && list.used - liveCount > max(liveCount, 8) {
      compact(&list, busy: busy, retired: &retired)
    }
    return registration
  }

  /// Makes `list` safe to change in place with room for `minimumCapacity`
  /// entries: a copy when a change may be reading it or someone else holds
  /// it, a larger list when it is full.
  private static func makeWritable(
    _ list: inout RegistrationList,
    minimumCapacity: Int,
    busy: Bool,
    retired: inout [AnyObject]
  ) {
    // Asked before any other local reference to the list is taken.
    if isKnownUniquelyReferenced(&list) {
      let fits = list.withUnsafeMutablePointers { header, _ in
        guard !(header.pointee.isShared && busy) else { return false }
        // No change reads it any more.
        header.pointee.isShared = false
        return true
      }
      if fits && list.capacity >= minimumCapacity { return }
    }
    let current = list
    let grow = current.capacity < minimumCapacity
    // By half again, not double: most lists stay short, where doubling
    // would leave a key of nine registrations with room for sixteen.
    let grown = max(minimumCapacity, current.capacity + current.capacity / 2)
    let copy = RegistrationList.make(capacity: grow ? grown : current.capacity)
    current.withUnsafeMutablePointers { header, elements in
      copy.withUnsafeMutablePointers { copyHeader, copyElements in
        copyElements.initialize(from: elements, count: Int(header.pointee.count))
        copyHeader.pointee = header.pointee
        copyHeader.pointee.isShared = false
      }
    }
    retire(current, busy: busy, retired: &retired)
    list = copy
  }

  private static func compact(_ list: inout RegistrationList, busy: Bool, retired: inout [AnyObject]) {
    let live = list.liveRegistrations
    let compacted = RegistrationList.make(capacity: max(live.count * 2, 2))
    let counts = list.withUnsafeMutablePointerToHeader { $0.pointee }
    compacted.withUnsafeMutablePointers { header, elements in
      for (index, registration) in live.enumerated() {
        registration.indexInSlot = Int32(index)
        (elements + index).initialize(to: registration)
      }
      header.pointee = counts
      header.pointee.count = Int32(live.count)
      header.pointee.isShared = false
    }
    retire(list, busy: busy, retired: &retired)
    list = compacted
  }

  /// What the slot does with a holder — a list or a lone registration — it
  /// lets go of: while a change may be under way (`busy`), one may have
  /// borrowed it, so it goes to `retired`, kept until none is. Otherwise no
  /// change reads it, and the slot's reference is simply dropped: a list's
  /// registrations that are still registered are held by its replacement,
  /// and a removed lone registration's reference goes to the caller.
  private static func retire(_ holder: AnyObject, busy: Bool, retired: inout [AnyObject]) {
    if busy { retired.append(holder) }
  }
}
