/// The registrations of one key at the moment a change starts, and whether
/// any of them needs the old value, the new value, or a prior notification.
///
/// What holds them — the key's list, or its lone registration — is not
/// retained when the change has a `record` (one of the storage's change
/// flags, set while the change is under way): the storage keeps it,
/// unchanged, while the flag is set. Without a record the snapshot owns a
/// reference to it, or (a manual change) the change holds it itself.
///
/// Not API.
@usableFromInline
struct ChangeSnapshot {
  /// The list, or the lone registration.
  @usableFromInline let holder: Unmanaged<AnyObject>
  /// Where the list keeps its registrations: its tail allocation, which
  /// stays in place while the list lives. Each entry is an optional class
  /// reference, one pointer, `nil` (a removed registration) being null.
  /// `nil` when the holder is the lone registration.
  @usableFromInline let entries: UnsafeRawPointer?
  @usableFromInline let record: AtomicFlagPointer?
  @usableFromInline let storedCount: Int32
  /// The `.old`, `.new` and `.prior` bits of ``KeyValueObservingOptions``
  /// that some registration asked for, as the registration stores them,
  /// and whether a chain's walk reads the key (the top bit).
  ///
  /// Bits in one byte, and the count in 32 bits, make the snapshot four
  /// words, which a call returns in registers; as five words it came back
  /// through memory, ten more instructions on every observed write. Its
  /// readers below are transparent: unoptimised, each call's result would
  /// take a slot in the frame a handler that writes its key recurses under.
  /// (`ChangeSnapshotTests` checks the bits against the options.)
  @usableFromInline let wants: UInt8
  /// Whether some change of the object was in a thread's record of changes
  /// when this one started (``_KeyValueObservationStorage/openChanges``):
  /// then the same key may be changing on this thread, and the change
  /// looks in the record even without a prior notification. Set by
  /// ``_KeyValueObservationStorage/beginChange(ofSlot:)``, which knows.
  @usableFromInline var objectHasOpenChanges = false
  /// The slot that changes, for registrations that hear every key of the
  /// object (``_KeyValueRegistration/everyKeySlot``); `-1` for a change
  /// filed under a key path. Two bytes the snapshot's last word had free.
  @usableFromInline var changedSlot: Int16 = -1

  /// How many registrations the snapshot holds, removed ones included.
  @_transparent @usableFromInline
  var count: Int { Int(storedCount) }

  /// Whether some registration asked for `.old` (bit 1).
  @_transparent @usableFromInline
  var wantsOldValue: Bool { wants & 0b0010 != 0 }

  /// Whether some registration asked for `.new` (bit 0).
  @_transparent @usableFromInline
  var wantsNewValue: Bool { wants & 0b0001 != 0 }

  /// Whether some registration asked for `.prior` (bit 3).
  @_transparent @usableFromInline
  var hasPrior: Bool { wants & 0b1000 != 0 }

  /// Whether a chain's walk reads the key from other threads (bit 7; see
  /// ``_KeyValueRegistration/walkedByChain``).
  @_transparent @usableFromInline
  var isWalkedByChain: Bool { wants & 0x80 != 0 }

  /// The bits of ``wants``, numbered as ``KeyValueObservingOptions``
  /// numbers `.new`, `.old` and `.prior`, and the walked-by-chain bit.
  /// Literals, so that unoptimised code reads them without a call.
  @_transparent @usableFromInline
  static var wantedOptions: UInt8 { 0b1000_1011 }

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
  /// retaining them one by one: the holder keeps them alive. (The change
  /// path, `_KeyValueObservationStorage.notify`, walks them itself, so
  /// that a handler runs under as few frames as can be.)
  @inlinable @inline(__always)
  func forEachLive(closingChanges: Bool, _ body: (_KeyValueRegistration) -> Void) {
    for index in 0..<count {
      liveRegistration(at: index, closingChanges: closingChanges)?._withUnsafeGuaranteedRef(body)
    }
  }

  /// The registration at `index` if it is to be called, read without
  /// taking a reference: if it is still live, or, after a change
  /// (`closingChanges`), if it forwards to a derived observation: the did
  /// of a change closes the change its will opened on this thread, even
  /// when the observation ended, or stopped depending on the key, in
  /// between (see ``DerivedChange``); it notifies nothing then.
  @inlinable @inline(__always)
  func liveRegistration(at index: Int, closingChanges: Bool) -> Unmanaged<_KeyValueRegistration>? {
    guard let entry = registration(at: index) else { return nil }
    if entry._withUnsafeGuaranteedRef({ $0.isLive }) { return entry }
    return closingChanges && Self.closesItsChange(entry) ? entry : nil
  }

  /// Whether a registration no longer live is called all the same, to
  /// close its change: one that forwards to a derived observation. Out of
  /// line, so that the optimiser cannot evaluate it beside the live test
  /// on every delivery (eight instructions a registration).
  @usableFromInline @inline(never)
  static func closesItsChange(_ entry: Unmanaged<_KeyValueRegistration>) -> Bool {
    entry._withUnsafeGuaranteedRef { $0.receiver == .forwarding }
  }

  /// The registration at `index`, read without taking a reference; `nil`
  /// where one was removed.
  @inlinable @inline(__always)
  func registration(at index: Int) -> Unmanaged<_KeyValueRegistration>? {
    guard let entries else { return Unmanaged.fromOpaque(holder.toOpaque()) }
    let stride = MemoryLayout<_KeyValueRegistration?>.stride
    return entries.load(fromByteOffset: index * stride, as: UnsafeRawPointer?.self).map(Unmanaged.fromOpaque)
  }

  /// A snapshot of `count` registrations; `wants` holds the options bits
  /// (``wantedOptions``) that some of them asked for.
  init(
    holder: Unmanaged<AnyObject>,
    entries: UnsafeRawPointer?,
    count: Int32,
    record: AtomicFlagPointer?,
    wants: UInt8
  ) {
    self.holder = holder
    self.entries = entries
    self.storedCount = count
    self.record = record
    self.wants = wants & Self.wantedOptions
  }
}
