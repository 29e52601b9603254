/// What one ``KeyValueUndoStack/undo()`` takes back: changes in the order
/// they were made.
struct UndoStep {
  var name: String
  var changes: UndoChanges
}

/// The changes of one step, in the order they were made. The first is
/// kept in the step itself, so that a step of one change, as a setting
/// made outside a group is, allocates no array: one of its own cost
/// recording such a step about 270 instructions.
struct UndoChanges: RandomAccessCollection {
  private var first: RecordedChange?
  private var rest: [RecordedChange] = []
  // Counted, so that no test of `first` copies it.
  private(set) var endIndex = 0

  /// No changes, as a group's step starts.
  init() {}

  /// One change.
  init(_ change: consuming RecordedChange) {
    first = change
    endIndex = 1
  }

  /// `changes`, in their order.
  init(_ changes: [RecordedChange]) {
    first = changes.first
    rest = Array(changes.dropFirst())
    endIndex = changes.count
  }

  var startIndex: Int { 0 }

  subscript(position: Int) -> RecordedChange {
    position == 0 ? first! : rest[position - 1]
  }

  /// Adds `change` after the others.
  mutating func append(_ change: consuming RecordedChange) {
    if endIndex == 0 {
      first = change
    } else {
      rest.append(change)
    }
    endIndex += 1
  }
}

/// A change a ``KeyValueUndoStack`` keeps: its object held weakly, so
/// that a freed object's changes are dropped.
///
/// A class: a step, its array and the state holding it move one reference
/// a change. As a struct, whose values are `Any`, each move was an
/// outlined copy of every field, and recording a step cost thousands of
/// instructions.
final class RecordedChange {
  // A `let`, so that the initialiser forms the weak reference once: a
  // `var` starts as `nil` and is assigned (70 instructions more).
  // `AnyObject`, not the observable: made from the object as the change
  // hands it, the weak reference retains nothing, and an object that has
  // a weak reference is slow to retain (about 90 instructions each way).
  weak let object: AnyObject?
  let keyReference: GraphKeyReference
  let change: KeyValueObservedChange<Any>

  /// A change of `graphKey` of `object`, not a prior one, its values
  /// moved, not copied.
  init(
    object: AnyObject,
    graphKey: GraphKeyReference,
    kind: KeyValueChange,
    oldValue: consuming Any?,
    newValue: consuming Any?,
    positions: IndexRanges?
  ) {
    self.object = object
    keyReference = graphKey
    change = KeyValueObservedChange(kind: kind, newValue: newValue, oldValue: oldValue, positions: positions, isPrior: false)
  }

  var graphKey: GraphKey { keyReference.key }

  /// Whether `other` is this change heard again: the same object, key,
  /// kind, indexes and values.
  func isSameChange(as other: RecordedChange) -> Bool {
    guard let object, let otherObject = other.object, object === otherObject, graphKey === other.graphKey || graphKey.keyPath == other.graphKey.keyPath,
      change.kind == other.change.kind, change.indexes == other.change.indexes
    else { return false }
    func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
      switch (lhs, rhs) {
      case (nil, nil): true
      case (let lhs?, let rhs?): compareValues(lhs, rhs) == true
      default: false
      }
    }
    return same(change.oldValue, other.change.oldValue) && same(change.newValue, other.change.newValue)
  }

  /// The change, while its object lives.
  var graphChange: KeyValueGraphChange? {
    object.flatMap(graphKey.observable).map { KeyValueGraphChange(object: $0, key: keyReference, change: change) }
  }
}
