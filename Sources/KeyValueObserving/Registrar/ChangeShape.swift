/// The kind of a change and, for an array, the positions it touches: what a
/// manual will-change announces and its did-change repeats.
struct ChangeShape {
  let kind: KeyValueChange
  /// The positions, as the sorted, disjoint ranges of a `RangeSet`, kept as
  /// an array so that each notification can take them without converting.
  let indexRanges: [Range<Int>]?

  init(kind: KeyValueChange, indexRanges: [Range<Int>]?) {
    self.kind = kind
    self.indexRanges = indexRanges
  }

  /// A whole new value.
  static let setting = ChangeShape(kind: .setting, indexRanges: nil)

  /// Whether the change has values before it: everything but an insertion.
  var hasOldValue: Bool { kind != .insertion }

  /// Whether the change has values after it: everything but a removal.
  var hasNewValue: Bool { kind != .removal }
}
