/// The kind of a change and, for an array, the positions it touches: what
/// a change's notifications say besides its values.
///
/// Not API.
@usableFromInline
struct ChangeShape: Sendable {
  @usableFromInline let kind: KeyValueChange
  /// The positions, in the form each notification takes them.
  @usableFromInline let indexRanges: IndexRanges?

  @inlinable
  init(kind: KeyValueChange, indexRanges: IndexRanges?) {
    self.kind = kind
    self.indexRanges = indexRanges
  }

  /// A whole new value.
  static let setting = ChangeShape(kind: .setting, indexRanges: nil)

  /// Whether the change has values before it: everything but an insertion.
  @inlinable
  var hasOldValue: Bool { kind != .insertion }

  /// Whether the change has values after it: everything but a removal.
  @inlinable
  var hasNewValue: Bool { kind != .removal }
}
