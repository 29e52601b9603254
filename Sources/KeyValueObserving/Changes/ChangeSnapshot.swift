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
  @usableFromInline let count: Int
  @usableFromInline let record: AtomicFlagPointer?
  @usableFromInline let wantsOldValue: Bool
  @usableFromInline let wantsNewValue: Bool
  @usableFromInline let hasPrior: Bool
  /// Whether some change of the object was in a thread's record of changes
  /// when this one started (``_KeyValueObservationStorage/openChanges``):
  /// then the same key may be changing on this thread, and the change
  /// looks in the record even without a prior notification. Set by
  /// ``_KeyValueObservationStorage/beginChange(ofSlot:)``, which knows.
  @usableFromInline var objectHasOpenChanges = false

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
    guard let entry = registration(at: index),
      entry._withUnsafeGuaranteedRef({ $0.isLive || (closingChanges && $0.receiver == .forwarding) })
    else { return nil }
    return entry
  }

  /// The registration at `index`, read without taking a reference; `nil`
  /// where one was removed.
  @inlinable @inline(__always)
  func registration(at index: Int) -> Unmanaged<_KeyValueRegistration>? {
    guard let entries else { return Unmanaged.fromOpaque(holder.toOpaque()) }
    let stride = MemoryLayout<_KeyValueRegistration?>.stride
    return entries.load(fromByteOffset: index * stride, as: UnsafeRawPointer?.self).map(Unmanaged.fromOpaque)
  }

  init(
    holder: Unmanaged<AnyObject>,
    entries: UnsafeRawPointer?,
    count: Int,
    record: AtomicFlagPointer?,
    wantsOldValue: Bool,
    wantsNewValue: Bool,
    hasPrior: Bool
  ) {
    self.holder = holder
    self.entries = entries
    self.count = count
    self.record = record
    self.wantsOldValue = wantsOldValue
    self.wantsNewValue = wantsNewValue
    self.hasPrior = hasPrior
  }
}
