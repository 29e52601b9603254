public import Synchronization

/// The registrations of one key of one object, in registration order.
///
/// Removal leaves a hole (`nil`) so that it is O(1); the holes are squeezed
/// out once they outnumber the live entries, which keeps removal amortised
/// O(1) and the list at most twice the live count.
///
/// A change reads the list after the storage's lock is released, without
/// retaining it (see ``ChangeSnapshot``). So a list that a change may be
/// reading is never changed in place: it is copied, and the old one is kept
/// until no change is under way (`retired`).
struct SlotRegistrations {
  /// The list, with the counts in its header; `nil` until the key is first
  /// observed, kept when its last registration goes.
  private(set) var list: RegistrationList?

  var isEmpty: Bool { liveCount == 0 }

  /// How many registrations are live.
  var liveCount: Int {
    guard let list else { return 0 }
    return Int(list.withUnsafeMutablePointerToHeader { $0.pointee.liveCount })
  }

  /// The live registrations, in order.
  var registrations: [_KeyValueRegistration] {
    list?.withUnsafeMutablePointers { header, elements in
      UnsafeBufferPointer(start: elements, count: Int(header.pointee.count)).compactMap { $0 }
    } ?? []
  }

  /// What a change needs to know. With a `record`, the change borrows the
  /// list while the record is active; without one it owns a reference,
  /// which ``_KeyValueObservationStorage/endChange(_:)`` gives back.
  func snapshot(for record: UnsafePointer<Atomic<Bool>>?) -> ChangeSnapshot {
    // Unmanaged from the start: the table keeps the list alive under the
    // lock, and a retain here would be one more atomic on every write.
    let list = Unmanaged.passUnretained(list.unsafelyUnwrapped)
    let header = list._withUnsafeGuaranteedRef { list in
      list.withUnsafeMutablePointerToHeader { header in
        // Written only when it changes: in the steady state a change writes
        // nothing but its change flag, so writers of different objects
        // never contend for a cache line the allocator made them share.
        if !header.pointee.isShared { header.pointee.isShared = true }
        return header.pointee
      }
    }
    return ChangeSnapshot(
      list: record == nil ? list.retain() : list,
      count: Int(header.count),
      record: record,
      wantsOldValue: header.oldValueCount > 0,
      wantsNewValue: header.newValueCount > 0,
      hasPrior: header.priorCount > 0
    )
  }

  /// Appends `registration`, whose reference (`passRetained`) the list
  /// takes over. `busy`: whether a change may be reading.
  mutating func append(
    _ registration: Unmanaged<_KeyValueRegistration>,
    busy: Bool,
    retired: inout [RegistrationList]
  ) {
    let used = list?.used ?? 0
    makeWritable(minimumCapacity: used + 1, busy: busy, retired: &retired)
    let options = registration._withUnsafeGuaranteedRef { registration in
      registration.indexInSlot = Int32(used)
      return registration.options
    }
    list!.withUnsafeMutablePointers { header, elements in
      (elements + used).initialize(to: registration.takeRetainedValue())
      header.pointee.count = Int32(used + 1)
      header.pointee.tally(options, by: 1)
    }
  }

  /// Removes `registration` if it is here and hands back the list's
  /// reference to it (so that the caller can release it after the lock), or
  /// returns `nil` when it was not here.
  mutating func remove(
    _ registration: Unmanaged<_KeyValueRegistration>,
    busy: Bool,
    retired: inout [RegistrationList]
  ) -> Unmanaged<_KeyValueRegistration>? {
    let (index, options) = registration._withUnsafeGuaranteedRef { (Int($0.indexInSlot), $0.options) }
    // No local reference to the list: `makeWritable` asks whether it is unique.
    let used = list?.used ?? 0
    guard index >= 0, index < used, list!.address(at: index) == registration.toOpaque() else { return nil }
    makeWritable(minimumCapacity: used, busy: busy, retired: &retired)
    list!.withUnsafeMutablePointers { header, elements in
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
    let liveCount = list!.withUnsafeMutablePointerToHeader { header in
      header.pointee.tally(options, by: -1)
      // Keep the buffer when it empties: a key observed once is likely
      // observed again.
      if header.pointee.liveCount == 0 { header.pointee.count = 0 }
      return Int(header.pointee.liveCount)
    }
    if liveCount > 0 && list!.used - liveCount > max(liveCount, 8) {
      compact(retired: &retired)
    }
    return registration
  }

  /// Takes every registration out, leaving the slot empty.
  mutating func removeAll() -> RegistrationList? {
    defer { self = SlotRegistrations() }
    return list
  }

  /// Makes `list` safe to change in place with room for `minimumCapacity`
  /// entries: a copy when a change may be reading it or someone else holds
  /// it, a larger list when it is full.
  private mutating func makeWritable(minimumCapacity: Int, busy: Bool, retired: inout [RegistrationList]) {
    // Asked before any local reference to the list is taken.
    let isUnique = isKnownUniquelyReferenced(&list)
    guard list != nil else {
      // Most keys have one observer.
      list = RegistrationList.make(capacity: minimumCapacity)
      return
    }
    if isUnique {
      let fits = list.unsafelyUnwrapped.withUnsafeMutablePointers { header, _ in
        guard !(header.pointee.isShared && busy) else { return false }
        // No change reads it any more.
        header.pointee.isShared = false
        return true
      }
      if fits && list.unsafelyUnwrapped.capacity >= minimumCapacity { return }
    }
    let current = list.unsafelyUnwrapped
    let grow = current.capacity < minimumCapacity
    let copy = RegistrationList.make(capacity: grow ? max(minimumCapacity, current.capacity * 2) : current.capacity)
    current.withUnsafeMutablePointers { header, elements in
      copy.withUnsafeMutablePointers { copyHeader, copyElements in
        copyElements.initialize(from: elements, count: Int(header.pointee.count))
        copyHeader.pointee = header.pointee
        copyHeader.pointee.isShared = false
      }
    }
    retired.append(current)
    list = copy
  }

  private mutating func compact(retired: inout [RegistrationList]) {
    let live = registrations
    let compacted = RegistrationList.make(capacity: max(live.count * 2, 2))
    let counts = list!.withUnsafeMutablePointerToHeader { $0.pointee }
    compacted.withUnsafeMutablePointers { header, elements in
      for (index, registration) in live.enumerated() {
        registration.indexInSlot = Int32(index)
        (elements + index).initialize(to: registration)
      }
      header.pointee = counts
      header.pointee.count = Int32(live.count)
      header.pointee.isShared = false
    }
    retired.append(list!)
    list = compacted
  }
}

/// The header of a ``RegistrationList``: its length and what its live
/// registrations ask for.
@usableFromInline
struct RegistrationListHeader {
  /// How many entries are initialised (holes included).
  @usableFromInline var count: Int32 = 0
  /// How many entries are live registrations.
  var liveCount: Int32 = 0
  /// How many live registrations asked for `.old`, `.new` and `.prior`.
  var oldValueCount: Int32 = 0
  var newValueCount: Int32 = 0
  var priorCount: Int32 = 0
  /// Whether a change took a snapshot of the list since it was last known
  /// to be unread.
  var isShared = false

  /// Counts a registration with `options` in (`delta` 1) or out (-1).
  mutating func tally(_ options: KeyValueObservingOptions, by delta: Int32) {
    liveCount += delta
    if options.contains(.old) { oldValueCount += delta }
    if options.contains(.new) { newValueCount += delta }
    if options.contains(.prior) { priorCount += delta }
  }
}

/// A list of registrations with holes, in one allocation.
///
/// Not API.
@usableFromInline
final class RegistrationList: ManagedBuffer<RegistrationListHeader, _KeyValueRegistration?> {
  static func make(capacity: Int) -> RegistrationList {
    let buffer = create(minimumCapacity: capacity) { _ in RegistrationListHeader() }
    return unsafeDowncast(buffer, to: RegistrationList.self)
  }

  /// The address of the registration at `index`, `nil` for a hole; read
  /// without taking a reference.
  func address(at index: Int) -> UnsafeMutableRawPointer? {
    withUnsafeMutablePointerToElements { elements in
      UnsafeRawPointer(elements + index).load(as: UnsafeMutableRawPointer?.self)
    }
  }

  /// How many entries are initialised, holes included. Read through a
  /// pointer: `header` is a class property, checked for exclusive access
  /// at run time.
  var used: Int {
    withUnsafeMutablePointerToHeader { Int($0.pointee.count) }
  }

  deinit {
    withUnsafeMutablePointers { header, elements in
      _ = elements.deinitialize(count: Int(header.pointee.count))
    }
  }
}

/// The registrations of one key at the moment a change starts, and whether
/// any of them needs the old value, the new value, or a prior notification.
///
/// The list is not retained when the change has a `record` (one of the
/// storage's change flags, set while the change is under way): the storage
/// keeps the list, unchanged, while the flag is set. Without a record the
/// snapshot owns a reference to the list, or (a manual change) the change
/// holds the list itself.
///
/// Not API.
@usableFromInline
struct ChangeSnapshot {
  @usableFromInline let list: Unmanaged<RegistrationList>
  @usableFromInline let count: Int
  @usableFromInline let record: UnsafePointer<Atomic<Bool>>?
  @usableFromInline let wantsOldValue: Bool
  @usableFromInline let wantsNewValue: Bool
  @usableFromInline let hasPrior: Bool

  /// The old value a change shaped `shape` carries to these registrations,
  /// read by `read` only when one of them asked for `.old` and the change
  /// has values before it. The one place that decides whether a change
  /// reads its old value.
  @inlinable @inline(__always)
  func oldValue<Value>(of shape: ChangeShape, _ read: () -> Value?) -> Value? {
    wantsOldValue && shape.hasOldValue ? read() : nil
  }

  /// The new value a change shaped `shape` carries to these registrations,
  /// read by `read` only when one of them asked for `.new` and the change
  /// has values after it.
  @inlinable @inline(__always)
  func newValue<Value>(of shape: ChangeShape, _ read: () -> Value?) -> Value? {
    wantsNewValue && shape.hasNewValue ? read() : nil
  }

  /// Calls `body` with each registration still live, in order, without
  /// retaining them one by one: the list keeps them alive. (The change
  /// path, `_KeyValueObservationStorage.notify`, walks the list itself, so
  /// that a handler runs under as few frames as can be.)
  @inlinable @inline(__always)
  func forEachLive(closingChanges: Bool, _ body: (_KeyValueRegistration) -> Void) {
    let registrations = storedRegistrations
    for index in 0..<count {
      liveRegistration(at: index, of: registrations, closingChanges: closingChanges)?._withUnsafeGuaranteedRef(body)
    }
  }

  /// The registration at `index` of `registrations` if it is to be called,
  /// read without taking a reference: if it is still live, or, after a
  /// change (`closingChanges`), if it forwards to a derived observation:
  /// the did of a change closes the change its will opened on this thread,
  /// even when the observation ended, or stopped depending on the key, in
  /// between (see ``DerivedChange``); it notifies nothing then.
  @inlinable @inline(__always)
  func liveRegistration(
    at index: Int,
    of registrations: UnsafeRawPointer,
    closingChanges: Bool
  ) -> Unmanaged<_KeyValueRegistration>? {
    guard let entry = registration(at: index, of: registrations),
      entry._withUnsafeGuaranteedRef({ $0.isLive || (closingChanges && $0.receiver == .forwarding) })
    else { return nil }
    return entry
  }

  /// Where the list keeps its registrations: its tail allocation, which
  /// stays in place while the list lives, and the snapshot keeps the list
  /// alive. Each entry is an optional class reference, one pointer, `nil`
  /// (a removed registration) being null.
  @inlinable
  var storedRegistrations: UnsafeRawPointer {
    list._withUnsafeGuaranteedRef { list in list.withUnsafeMutablePointerToElements { UnsafeRawPointer($0) } }
  }

  /// The registration at `index` of `registrations`, read without taking a
  /// reference; `nil` where one was removed.
  @inlinable @inline(__always)
  func registration(at index: Int, of registrations: UnsafeRawPointer) -> Unmanaged<_KeyValueRegistration>? {
    let stride = MemoryLayout<_KeyValueRegistration?>.stride
    return registrations.load(fromByteOffset: index * stride, as: UnsafeRawPointer?.self).map(Unmanaged.fromOpaque)
  }

  init(
    list: Unmanaged<RegistrationList>,
    count: Int,
    record: UnsafePointer<Atomic<Bool>>?,
    wantsOldValue: Bool,
    wantsNewValue: Bool,
    hasPrior: Bool
  ) {
    self.list = list
    self.count = count
    self.record = record
    self.wantsOldValue = wantsOldValue
    self.wantsNewValue = wantsNewValue
    self.hasPrior = hasPrior
  }
}
