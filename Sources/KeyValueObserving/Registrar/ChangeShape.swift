/// The kind of a change and, for an array, the positions it touches: what a
/// manual will-change announces and its did-change repeats.
struct ChangeShape {
  let kind: KeyValueChange
  let indexes: RangeSet<Int>?

  /// A whole new value.
  static let setting = ChangeShape(kind: .setting, indexes: nil)

  /// Whether the change has values before it: everything but an insertion.
  var hasOldValue: Bool { kind != .insertion }

  /// Whether the change has values after it: everything but a removal.
  var hasNewValue: Bool { kind != .removal }
}
