/// A change that spans two calls on one thread — a manual
/// `willChangeValue`/`didChangeValue` pair, or a derived observation's
/// change from a dependency's will to its did — as an entry of the thread's
/// record. Subclasses keep what the did needs.
///
/// Not API.
@usableFromInline
class PendingChange {
  /// The change's entry in the thread's record.
  @usableFromInline let frame: UnsafeMutablePointer<_KeyValueChangeNesting.Frame>

  /// Whose change it is (a storage, or the own change of a derived
  /// observation), or `nil` when the change is its own owner: a derived
  /// observation's own change, which the observation keeps.
  @usableFromInline let owner: Unmanaged<AnyObject>?

  /// Whether the thread's record keeps the change and its owner alive
  /// while it is open, so that the owner's identity is not reused
  /// meanwhile. A change that is its own owner is kept by whoever made it
  /// (a derived observation keeps its own change, for good if it ends
  /// with the change open), and costs no reference counting.
  @usableFromInline let keptByRecord: Bool

  /// The task that opened the change, 0 outside any task: only its own
  /// changes fold into it.
  @exclusivity(unchecked) @usableFromInline var task: UInt = 0

  /// A change of `slot` of `owner`, kept by the thread's record while
  /// open; with no owner, a change that is its own owner, kept by its maker.
  @usableFromInline
  init(owner: AnyObject?, slot: Int) {
    self.owner = owner.map { Unmanaged.passUnretained($0) }
    self.keptByRecord = owner != nil
    let frame = UnsafeMutablePointer<_KeyValueChangeNesting.Frame>.allocate(capacity: 1)
    self.frame = frame
    let identity = owner.map(ObjectIdentifier.init) ?? ObjectIdentifier(self)
    frame.initialize(to: .init(owner: identity, slot: slot, pending: Unmanaged.passUnretained(self)))
  }

  deinit {
    frame.deinitialize(count: 1)
    frame.deallocate()
  }
}
