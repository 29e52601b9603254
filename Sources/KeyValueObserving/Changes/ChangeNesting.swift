/// The changes under way on the current thread, so that a change made while
/// the same change is already under way folds into the outer one: nested
/// will/did pairs on one key notify once, for the outermost. A to-many
/// change that a fold would make untrue learns of it (``FoldWatch``).
///
/// Two kinds of owner open changes here. A storage opens the change of one
/// of its keys: from a prior callback, from the property's own
/// `willSet`/`didSet`, or between a manual `willChangeValue` and its
/// `didChangeValue`, the same key of the same object may change again. A
/// derived observation (a computed key, a chain) opens its own change at
/// the will of one of its dependencies and closes it at the matching did;
/// the wills of other dependencies in between — one assignment whose
/// `didSet` changes a second dependency — only add to it.
///
/// The window of a setter's change runs from its prior notifications to the
/// end of the assignment; observers notified after it may change the key
/// again and are notified again. Only changes that can run user code inside
/// that window (a registration with `.prior`, a property with its own
/// observers) are recorded, and changes made while a change of the same
/// object is recorded on some thread (the storage counts them): a change
/// that finds no record of its key on its own thread goes on as it would
/// have without one, so whether a change folds depends on its thread alone.
///
/// The record is a list of frames headed by one thread-local pointer. A
/// setter's frame lives on its stack (no allocation); a change that spans
/// two calls — a manual will/did pair (``ManualChange``), a derived
/// observation's change (``DerivedChange``) — keeps a heap frame
/// (``PendingChange``) until its did. Changes of both kinds interleave (a
/// manual will opened inside a setter's window, its did after it), so a
/// frame is unlinked wherever it is in the list. Only its own thread
/// unlinks a frame, so every did that closes one is delivered on the thread
/// of its will — to a derived observation even when it ended, or stopped
/// depending on the key, in between (see ``ChangeSnapshot``).
///
/// Not API.
public enum _KeyValueChangeNesting {
  /// One change under way: whose (a storage, or a derived observation),
  /// which key (a derived observation has one, ``DerivedChange/slot``), the
  /// next frames out and in, and the pending change a heap frame belongs
  /// to. Linked both ways, so that a frame leaves the list in constant time
  /// wherever it is: a thousand derived observations open their changes at
  /// one will and close them, first opened first, at its did.
  @usableFromInline
  struct Frame {
    @usableFromInline let owner: ObjectIdentifier
    @usableFromInline let slot: Int
    @usableFromInline var outer: UnsafeMutablePointer<Frame>?
    @usableFromInline var inner: UnsafeMutablePointer<Frame>?
    @usableFromInline let pending: Unmanaged<PendingChange>?
    /// Whether the key is a link a chain walks: a write folding into the
    /// change holds what it replaces, so it is not made in place (see
    /// `Unmanaged._modifiesInPlace(slot:)`).
    @usableFromInline var holdsReplacedLinks: Bool

    @usableFromInline
    init(
      owner: ObjectIdentifier, slot: Int, pending: Unmanaged<PendingChange>? = nil, holdsReplacedLinks: Bool = false
    ) {
      self.owner = owner
      self.slot = slot
      self.outer = nil
      self.inner = nil
      self.pending = pending
      self.holdsReplacedLinks = holdsReplacedLinks
    }
  }

  private static let innermost = ThreadLocal(.innermostChange)


  /// Runs `body` as the change of `slot` of `storage` on this thread, or
  /// returns `nil` without running it when that key is already changing
  /// here: the change folds into that one, which is told so (see
  /// ``FoldWatch``).
  @inlinable
  static func withChange<Result>(
    of storage: _KeyValueObservationStorage,
    slot: Int,
    holdsReplacedLinks: Bool,
    _ body: () -> Result
  ) -> Result? {
    let owner = ObjectIdentifier(storage)
    guard find(owner, slot: slot) == nil else {
      noteFold(of: owner, slot: slot)
      return nil
    }
    var frame = Frame(owner: owner, slot: slot, holdsReplacedLinks: holdsReplacedLinks)
    // Unprotected: the frame is a record linked into the thread's list,
    // not a buffer anything writes past. A protected one gave every
    // function this is inlined into, the observed setter among them, a
    // stack canary: five instructions on each observed write.
    return _withUnprotectedUnsafeMutablePointer(to: &frame) { frame in
      push(frame)
      defer { unlink(frame) }
      return body()
    }
  }

  /// The innermost frame of `slot` of `owner` on this thread that belongs
  /// to the running task.
  ///
  /// A manual will-change opened by a task that then suspended (a sync
  /// helper's `willChangeValue`, an `await`, and the `didChangeValue` on
  /// whatever thread the task resumes on) stays in this thread's record;
  /// it must not fold the writes that other tasks later make here into a
  /// change that never closes. So a heap frame counts only for the task
  /// (or the code outside any task) that opened it.
  @usableFromInline
  static func find(_ owner: ObjectIdentifier, slot: Int) -> UnsafeMutablePointer<Frame>? {
    var cursor = innermost.value?.assumingMemoryBound(to: Frame.self)
    var task: UInt? = nil
    while let frame = cursor {
      if frame.pointee.owner == owner && frame.pointee.slot == slot {
        guard let pending = frame.pointee.pending else { return frame }
        if task == nil { task = currentTaskIdentity() }
        if pending._withUnsafeGuaranteedRef({ $0.task }) == task! { return frame }
      }
      cursor = frame.pointee.outer
    }
    return nil
  }

  /// The running task's identity, or 0 outside any task: its address.
  @usableFromInline
  static func currentTaskIdentity() -> UInt {
    UInt(bitPattern: kvoCurrentTask())
  }

  /// The pending change open for `slot` of `owner` on this thread, if any.
  static func pendingChange(of owner: AnyObject, slot: Int) -> PendingChange? {
    find(ObjectIdentifier(owner), slot: slot)?.pointee.pending?.takeUnretainedValue()
  }

  /// Opens `change` on this thread, for the running task: it stays in the
  /// record until ``close(_:)``, which keeps it and its owner alive
  /// meanwhile unless it is its own owner (see ``PendingChange``).
  @usableFromInline
  static func open(_ change: PendingChange) {
    change.task = currentTaskIdentity()
    if change.keptByRecord {
      _ = Unmanaged.passRetained(change)
      _ = change.owner?.retain()
    }
    push(change.frame)
  }

  /// Closes a change opened on this thread by ``open(_:)``.
  @usableFromInline
  static func close(_ change: PendingChange) {
    unlink(change.frame)
    if change.keptByRecord {
      change.owner?.release()
      Unmanaged.passUnretained(change).release()
    }
  }

  @usableFromInline
  static func push(_ frame: UnsafeMutablePointer<Frame>) {
    let head = innermost.value?.assumingMemoryBound(to: Frame.self)
    frame.pointee.outer = head
    frame.pointee.inner = nil
    head?.pointee.inner = frame
    innermost.value = UnsafeMutableRawPointer(frame)
  }

  /// Takes `frame` out of the list, wherever it is, in constant time.
  @usableFromInline
  static func unlink(_ frame: UnsafeMutablePointer<Frame>) {
    let outer = frame.pointee.outer
    if let inner = frame.pointee.inner {
      inner.pointee.outer = outer
    } else {
      innermost.value = outer.map(UnsafeMutableRawPointer.init)
    }
    outer?.pointee.inner = frame.pointee.inner
  }
}
