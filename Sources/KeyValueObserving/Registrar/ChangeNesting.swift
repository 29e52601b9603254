/// The changes under way on the current thread, so that a change of a key
/// made while the same key of the same object is already changing (from a
/// prior callback, or from the property's own `didSet`) folds into the outer
/// change: nested will/did pairs on one key notify once, for the outermost.
///
/// The window of a change runs from its prior notifications to the end of
/// the assignment; observers notified after it may change the key again and
/// are notified again.
///
/// Not API.
public enum _KeyValueChangeNesting {
  /// One list per thread, made on the thread's first observed change and
  /// released when the thread ends.
  private static let perThread = ThreadLocal { list in
    if let list { Unmanaged<ChangesInProgress>.fromOpaque(list).release() }
  }

  private final class ChangesInProgress {
    var entries: [(storage: ObjectIdentifier, slot: Int)] = []
  }

  private static var changes: ChangesInProgress {
    if let list = perThread.value {
      return Unmanaged<ChangesInProgress>.fromOpaque(list).takeUnretainedValue()
    }
    let list = ChangesInProgress()
    perThread.value = Unmanaged.passRetained(list).toOpaque()
    return list
  }

  /// Marks `slot` of `storage` as changing on this thread; returns `false`
  /// when it already was, in which case the caller must not notify.
  @usableFromInline
  static func enter(_ storage: _KeyValueObservationStorage, slot: Int) -> Bool {
    let list = changes
    let identity = ObjectIdentifier(storage)
    if list.entries.contains(where: { $0.storage == identity && $0.slot == slot }) { return false }
    list.entries.append((identity, slot))
    return true
  }

  /// Ends the change `enter` began.
  @usableFromInline
  static func exit(_ storage: _KeyValueObservationStorage, slot: Int) {
    let list = changes
    let identity = ObjectIdentifier(storage)
    if let index = list.entries.lastIndex(where: { $0.storage == identity && $0.slot == slot }) {
      list.entries.remove(at: index)
    }
  }
}
