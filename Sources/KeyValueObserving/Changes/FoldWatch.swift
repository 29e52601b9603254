/// A to-many change (an insertion, removal or replacement) waiting to learn
/// whether another change of its key folds into it: a change its kind and
/// indexes do not describe.
///
/// A change of a key made while the same key is changing on the thread
/// folds into the outer change (see ``_KeyValueChangeNesting``): observers
/// are notified once, for the outer one. For a setting that is the whole
/// story, its record runs from the value before to the value after. A
/// to-many record names only the elements it touched, and is untrue once
/// anything else changed the collection: the list set in a prior callback
/// of an `append`, a `didSet` that trims what a proxy added. Such a change
/// is watched while that can happen — from its prior notifications to the
/// end of a proxy's mutation, or to the end of a manual will's prior
/// notifications (the body of a manual pair is the change it announces) —
/// and a change folding into it says so here: its did record is then a
/// setting from the whole value before to the whole value after.
///
/// Watches are a list on the thread's stack, headed by one thread-local
/// pointer, apart from the record of open changes so that a frame stays
/// the size it was: changes that can be folded into are many (every
/// derived observation keeps one), watched ones few. A watch lives within
/// one call, so the list is always the thread's own stack of them.
///
/// Not API.
@usableFromInline
struct FoldWatch {
  let owner: ObjectIdentifier
  let slot: Int
  /// Whether a change of the key folded into the watched one.
  var folded = false
  /// Reads the whole value, at the first fold, into the watcher's own
  /// variable: the value before the watched change when the fold comes
  /// before its mutation (a prior callback). `nil` when the watcher needs
  /// no such value, or read it already.
  let readBefore: (() -> Void)?
  var outer: UnsafeMutablePointer<FoldWatch>?
}

extension _KeyValueChangeNesting {
  private static let watches = ThreadLocal(.foldWatches)

  /// Runs `body` watching `slot` of `owner` on this thread: returns whether
  /// a change of that key folded into a change under way meanwhile. At the
  /// first such fold, `readBefore` runs, when `readingBefore`.
  ///
  /// Not inlined: only changes that user code may fold into are watched,
  /// and the call keeps them off the common path.
  @usableFromInline
  static func watchingFolds(
    of owner: ObjectIdentifier,
    slot: Int,
    readingBefore: Bool,
    readBefore: () -> Void,
    _ body: () -> Void
  ) -> Bool {
    withoutActuallyEscaping(readBefore) { readBefore in
      var watch = FoldWatch(owner: owner, slot: slot, readBefore: readingBefore ? readBefore : nil)
      return withUnsafeMutablePointer(to: &watch) { watch in
        let outer = watches.value
        watch.pointee.outer = outer?.assumingMemoryBound(to: FoldWatch.self)
        watches.value = UnsafeMutableRawPointer(watch)
        defer { watches.value = outer }
        body()
        return watch.pointee.folded
      }
    }
  }

  /// Tells the watches of `slot` of `owner` on this thread that a change
  /// of that key is folding into the one under way: called where a change
  /// finds its key already changing, before it changes anything.
  @usableFromInline
  static func noteFold(of owner: ObjectIdentifier, slot: Int) {
    var cursor = watches.value?.assumingMemoryBound(to: FoldWatch.self)
    while let watch = cursor {
      cursor = watch.pointee.outer
      guard watch.pointee.owner == owner, watch.pointee.slot == slot, !watch.pointee.folded else { continue }
      watch.pointee.folded = true
      watch.pointee.readBefore?()
    }
  }
}
