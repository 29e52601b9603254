/// The registrations of one key of one object, in registration order.
///
/// Removal leaves a hole (`nil`) so that it is O(1); the holes are squeezed
/// out once they outnumber the live entries, which keeps removal amortised
/// O(1) and the list at most twice the live count.
struct SlotRegistrations {
  private(set) var entries: ContiguousArray<_KeyValueRegistration?> = []
  private(set) var liveCount = 0
  private var oldValueCount = 0
  private var newValueCount = 0
  private var priorCount = 0

  var isEmpty: Bool { liveCount == 0 }

  /// What a change needs to know, taken under the lock and used after it.
  var snapshot: ChangeSnapshot {
    ChangeSnapshot(
      entries: entries,
      wantsOldValue: oldValueCount > 0,
      wantsNewValue: newValueCount > 0,
      hasPrior: priorCount > 0
    )
  }

  mutating func append(_ registration: _KeyValueRegistration) {
    registration.indexInSlot = Int32(entries.count)
    entries.append(registration)
    count(registration.options, by: 1)
  }

  /// Removes `registration` if it is here and hands back the list's
  /// reference to it (so that the caller can release it after the lock), or
  /// returns `nil` when it was not here.
  mutating func remove(_ registration: Unmanaged<_KeyValueRegistration>) -> _KeyValueRegistration? {
    let (index, identity) = registration._withUnsafeGuaranteedRef { (Int($0.indexInSlot), ObjectIdentifier($0)) }
    guard entries.indices.contains(index), entries[index].map(ObjectIdentifier.init) == identity,
      let removed = entries[index].take()
    else { return nil }
    removed.indexInSlot = -1
    count(removed.options, by: -1)
    if liveCount == 0 {
      // Keep the buffer: a key observed once is likely observed again.
      entries.removeAll(keepingCapacity: true)
    } else if entries.count - liveCount > max(liveCount, 8) {
      compact()
    }
    return removed
  }

  /// Takes every registration out, leaving the slot empty.
  mutating func removeAll() -> ContiguousArray<_KeyValueRegistration?> {
    defer { self = SlotRegistrations() }
    return entries
  }

  private mutating func count(_ options: KeyValueObservingOptions, by delta: Int) {
    liveCount += delta
    if options.contains(.old) { oldValueCount += delta }
    if options.contains(.new) { newValueCount += delta }
    if options.contains(.prior) { priorCount += delta }
  }

  private mutating func compact() {
    var live = ContiguousArray<_KeyValueRegistration?>()
    live.reserveCapacity(liveCount)
    for case let registration? in entries {
      registration.indexInSlot = Int32(live.count)
      live.append(registration)
    }
    entries = live
  }
}

/// The registrations of one key at the moment a change starts, and whether
/// any of them needs the old value, the new value, or a prior notification.
///
/// Not API.
@usableFromInline
struct ChangeSnapshot {
  @usableFromInline let entries: ContiguousArray<_KeyValueRegistration?>
  @usableFromInline let wantsOldValue: Bool
  @usableFromInline let wantsNewValue: Bool
  @usableFromInline let hasPrior: Bool

  /// Calls `body` with each registration still live, in order, without
  /// retaining them one by one: the snapshot's list keeps them alive.
  @inlinable @inline(__always)
  func forEachLive(_ body: (_KeyValueRegistration) -> Void) {
    entries.withUnsafeBufferPointer { buffer in
      // An optional class reference is one pointer, nil being null: read
      // the pointers without taking a reference.
      let pointers = UnsafeRawBufferPointer(buffer)
      let stride = MemoryLayout<_KeyValueRegistration?>.stride
      for index in 0..<buffer.count {
        guard let pointer = pointers.load(fromByteOffset: index * stride, as: UnsafeRawPointer?.self) else {
          continue
        }
        Unmanaged<_KeyValueRegistration>.fromOpaque(pointer)._withUnsafeGuaranteedRef { registration in
          if registration.isLive { body(registration) }
        }
      }
    }
  }

  init(
    entries: ContiguousArray<_KeyValueRegistration?>,
    wantsOldValue: Bool,
    wantsNewValue: Bool,
    hasPrior: Bool
  ) {
    self.entries = entries
    self.wantsOldValue = wantsOldValue
    self.wantsNewValue = wantsNewValue
    self.hasPrior = hasPrior
  }
}
