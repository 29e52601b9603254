/// The changes under way on the current thread, so that a change of a key
/// made while the same key of the same object is already changing (from a
/// prior callback, or from the property's own `willSet`/`didSet`) folds into
/// the outer change: nested will/did pairs on one key notify once, for the
/// outermost.
///
/// The window of a change runs from its prior notifications to the end of
/// the assignment; observers notified after it may change the key again and
/// are notified again. Only changes that run user code inside that window
/// (a registration with `.prior`, or a property with its own observers) are
/// recorded: without user code in the window nothing can nest.
///
/// The record is a linked list of frames that live on the stack of the
/// changing calls, headed by one thread-local pointer: no allocation.
///
/// Not API.
///
/// ```swift
/// // Inside the registrar's write path:
/// // _KeyValueChangeNesting.withChange(of: storage, slot: 0) { deliverPrior(); assign() }
/// ```
public enum _KeyValueChangeNesting {
  /// One change under way: which object's storage, which key, and the change
  /// it is nested in.
  @usableFromInline
  struct Frame {
    @usableFromInline let storage: ObjectIdentifier
    @usableFromInline let slot: Int
    @usableFromInline let outer: UnsafeMutableRawPointer?

    @usableFromInline
    init(storage: ObjectIdentifier, slot: Int, outer: UnsafeMutableRawPointer?) {
      self.storage = storage
      self.slot = slot
      self.outer = outer
    }
  }

  private static let innermost = ThreadLocal()

  /// Runs `body` as the change of `slot` of `storage` on this thread, or
  /// returns `nil` without running it when that key is already changing here.
  @inlinable
  static func withChange<Result>(
    of storage: _KeyValueObservationStorage,
    slot: Int,
    _ body: () -> Result
  ) -> Result? {
    guard let outer = begin(storage, slot: slot) else { return nil }
    var frame = Frame(storage: ObjectIdentifier(storage), slot: slot, outer: outer.pointer)
    return withUnsafeMutablePointer(to: &frame) { frame in
      push(frame)
      defer { pop(frame) }
      return body()
    }
  }

  /// The current innermost frame (wrapped, so that "none" and "already
  /// changing" stay apart), or `nil` when `slot` of `storage` is changing.
  @usableFromInline
  static func begin(_ storage: _KeyValueObservationStorage, slot: Int) -> OuterFrame? {
    let identity = ObjectIdentifier(storage)
    var cursor = innermost.value
    while let current = cursor {
      let frame = current.assumingMemoryBound(to: Frame.self).pointee
      if frame.storage == identity && frame.slot == slot { return nil }
      cursor = frame.outer
    }
    return OuterFrame(pointer: innermost.value)
  }

  @usableFromInline
  struct OuterFrame {
    @usableFromInline let pointer: UnsafeMutableRawPointer?
  }

  @usableFromInline
  static func push(_ frame: UnsafeMutablePointer<Frame>) {
    innermost.value = UnsafeMutableRawPointer(frame)
  }

  @usableFromInline
  static func pop(_ frame: UnsafeMutablePointer<Frame>) {
    innermost.value = frame.pointee.outer
  }
}
