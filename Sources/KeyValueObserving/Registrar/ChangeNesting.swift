public import Synchronization

/// The changes under way on the current thread, so that a change of a key
/// made while the same key of the same object is already changing (from a
/// prior callback, from the property's own `willSet`/`didSet`, or between a
/// manual `willChangeValue` and its `didChangeValue`) folds into the outer
/// change: nested will/did pairs on one key notify once, for the outermost.
///
/// The window of a setter's change runs from its prior notifications to the
/// end of the assignment; observers notified after it may change the key
/// again and are notified again. Only changes that can run user code inside
/// that window (a registration with `.prior`, a property with its own
/// observers, or a manual change open somewhere) are recorded.
///
/// The record is a list of frames headed by one thread-local pointer. A
/// setter's frame lives on its stack (no allocation); a manual will/did
/// pair, which spans two calls, keeps a heap frame (``PendingChange``) until
/// its did. The two kinds interleave (a manual will opened inside a
/// setter's window, its did after it), so a frame is unlinked wherever it
/// is in the list. A key derived from others keeps its own per-thread
/// record of the changes of its dependencies (``PendingChanges``, kept by
/// ``DerivedObservation``), which its end drops: a frame here can only be
/// unlinked by its own thread, and a derived observation may end between a
/// dependency's will and its did, which then never comes.
///
/// Not API.
///
/// ```swift
/// // Inside the registrar's write path:
/// // _KeyValueChangeNesting.withChange(of: storage, slot: 0) { deliverPrior(); assign() }
/// ```
public enum _KeyValueChangeNesting {
  /// One change under way: whose (a storage), which key, the next frame
  /// out, and the pending change a heap frame belongs to.
  @usableFromInline
  struct Frame {
    @usableFromInline let owner: ObjectIdentifier
    @usableFromInline let slot: Int
    @usableFromInline var outer: UnsafeMutablePointer<Frame>?
    @usableFromInline let pending: Unmanaged<PendingChange>?

    @usableFromInline
    init(owner: ObjectIdentifier, slot: Int, pending: Unmanaged<PendingChange>? = nil) {
      self.owner = owner
      self.slot = slot
      self.outer = nil
      self.pending = pending
    }
  }

  private static let innermost = ThreadLocal(.innermostChange)

  /// How many heap frames are open on all threads together. A setter whose
  /// change runs no user code skips the record while it is zero.
  @usableFromInline static let openPendingChanges = Atomic<Int>(0)

  /// Runs `body` as the change of `slot` of `storage` on this thread, or
  /// returns `nil` without running it when that key is already changing here.
  @inlinable
  static func withChange<Result>(
    of storage: _KeyValueObservationStorage,
    slot: Int,
    _ body: () -> Result
  ) -> Result? {
    let owner = ObjectIdentifier(storage)
    guard find(owner, slot: slot) == nil else { return nil }
    var frame = Frame(owner: owner, slot: slot)
    return withUnsafeMutablePointer(to: &frame) { frame in
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
    var task: Int?? = nil
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

  /// The running task's identity, or `nil` outside any task.
  @usableFromInline
  static func currentTaskIdentity() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
  }

  /// The pending change open for `slot` of `owner` on this thread, if any.
  static func pendingChange(of owner: AnyObject, slot: Int) -> PendingChange? {
    find(ObjectIdentifier(owner), slot: slot)?.pointee.pending?.takeUnretainedValue()
  }

  /// Opens `change` on this thread: it stays in the record until ``close(_:)``.
  static func open(_ change: PendingChange) {
    openPendingChanges.add(1, ordering: .relaxed)
    _ = Unmanaged.passRetained(change)
    push(change.frame)
  }

  /// Closes a change opened on this thread by ``open(_:)``.
  static func close(_ change: PendingChange) {
    unlink(change.frame)
    openPendingChanges.subtract(1, ordering: .relaxed)
    Unmanaged.passUnretained(change).release()
  }

  @usableFromInline
  static func push(_ frame: UnsafeMutablePointer<Frame>) {
    frame.pointee.outer = innermost.value?.assumingMemoryBound(to: Frame.self)
    innermost.value = UnsafeMutableRawPointer(frame)
  }

  /// Takes `frame` out of the list, wherever it is.
  @usableFromInline
  static func unlink(_ frame: UnsafeMutablePointer<Frame>) {
    let head = innermost.value?.assumingMemoryBound(to: Frame.self)
    if head == frame {
      innermost.value = frame.pointee.outer.map(UnsafeMutableRawPointer.init)
      return
    }
    var cursor = head
    while let current = cursor {
      if current.pointee.outer == frame {
        current.pointee.outer = frame.pointee.outer
        return
      }
      cursor = current.pointee.outer
    }
  }
}

/// A change that spans two calls on one thread — a manual
/// `willChangeValue`/`didChangeValue` pair — with what its did needs: how
/// deeply it is nested and what was known at its will.
///
/// Not API.
///
/// ```swift
/// // Made by willChangeValue(for:) and its siblings.
/// ```
@usableFromInline
class PendingChange {
  /// The change's entry in the thread's record.
  let frame: UnsafeMutablePointer<_KeyValueChangeNesting.Frame>

  /// Keeps the owner's identity from being reused while the change is open.
  let owner: AnyObject

  /// How many will calls on this key are still waiting for their did.
  var depth = 1

  /// The task that opened the change, `nil` outside any task: only its
  /// own writes fold into the change.
  @usableFromInline let task: Int?

  init(owner: AnyObject, slot: Int) {
    self.owner = owner
    self.task = _KeyValueChangeNesting.currentTaskIdentity()
    let frame = UnsafeMutablePointer<_KeyValueChangeNesting.Frame>.allocate(capacity: 1)
    self.frame = frame
    frame.initialize(to: .init(owner: ObjectIdentifier(owner), slot: slot, pending: Unmanaged.passUnretained(self)))
  }

  deinit {
    frame.deinitialize(count: 1)
    frame.deallocate()
  }
}
