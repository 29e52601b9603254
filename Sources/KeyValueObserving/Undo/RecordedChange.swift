/// A change a ``KeyValueUndoStack`` keeps: its object held without
/// keeping it alive, so that a freed object's changes are dropped, and
/// only what undoing it needs.
///
/// A struct, kept in place in its steps' chunks (``UndoSteps``), that
/// moves bit by bit: a class cost an allocation a change, about 270
/// instructions. Moved, never copied, on the way there.
struct RecordedChange {
  /// What undoing a change needs.
  enum Content {
    /// A setting's old value. Its new value is not kept: undoing sets the
    /// old one, and the change that undo makes is the redo step, with the
    /// new value as its old one.
    case setting(oldValue: Any?)
    /// A to-many change, whole: its indexes, and the elements that
    /// undoing it removes or puts back.
    indirect case elements(KeyValueObservedChange<Any>)
  }

  let object: RecordedObject
  /// The key, interned and kept for good
  /// (``GraphKey/interned(for:storages:)``): held, and handed down from
  /// the graph, with no retain. (An `unowned(unsafe)` key passed as an
  /// argument was retained and released each time.)
  let unretainedKey: Unmanaged<GraphKey>
  let content: Content
  /// The recording that heard it (``UndoState/possibleRepeat(of:key:from:)``).
  let recording: Int

  var key: GraphKey { unretainedKey.takeUnretainedValue() }

  /// Whether this is a change of `key`: the same key, or the same key
  /// path in another class's table (a subclass's).
  func isOfKey(_ key: Unmanaged<GraphKey>) -> Bool {
    let key = key.takeUnretainedValue()
    return self.key === key || self.key.keyPath == key.keyPath
  }

  /// Whether `content`, heard for `key` of `object`, is this change heard
  /// again: the same object, key, kind, indexes and values. A setting's
  /// old values are compared: a different setting of the same key next
  /// has this one's new value as its old one.
  func isSame(_ content: Content, of key: Unmanaged<GraphKey>, of object: AnyObject) -> Bool {
    guard self.object.refers(to: object), isOfKey(key) else { return false }
    switch (self.content, content) {
    case (.setting(let kept), .setting(let heard)):
      return same(kept, heard)
    case (.elements(let kept), .elements(let heard)):
      return kept.kind == heard.kind && kept.indexes == heard.indexes
        && same(kept.oldValue, heard.oldValue) && same(kept.newValue, heard.newValue)
    default:
      return false
    }
  }

  /// The change as a record to apply, while its object lives: a setting's
  /// with its old value only, which is all its inverse sets.
  var graphChange: KeyValueGraphChange? {
    guard let object = object.object.flatMap(key.observable) else { return nil }
    let change =
      switch content {
      case .setting(let oldValue): KeyValueObservedChange<Any>(kind: .setting, newValue: nil, oldValue: oldValue, positions: nil, isPrior: false)
      case .elements(let change): change
      }
    return KeyValueGraphChange(object: object, key: GraphKeyReference(interned: key), change: change)
  }
}

/// Whether two values of changes are equal (``compareValues(_:_:)``), or
/// both absent.
private func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): true
  case (let lhs?, let rhs?): compareValues(lhs, rhs) == true
  default: false
  }
}
