/// The kind of change a notification reports.
///
/// A property that is assigned reports ``setting``. The to-many kinds describe
/// mutations of a collection property made through a collection proxy or
/// announced by hand; they carry the affected indexes.
///
/// ```swift
/// person.observe(\.name, options: .new) { _, change in
///     switch change.kind {
///     case .setting: print("assigned \(change.newValue!)")
///     case .insertion, .removal, .replacement: print("to-many change")
///     }
/// }
/// ```
///
/// The raw values are Objective-C's `NSKeyValueChange` values, 1 to 4, so
/// that ported code comparing them keeps working:
///
/// ```swift
/// let kind = change[.kind] as! KeyValueChange
/// if kind.rawValue == 2 { print("insertion") }   // NSKeyValueChangeInsertion
/// ```
public enum KeyValueChange: UInt, Sendable, Hashable {
  /// The whole value was assigned (`NSKeyValueChangeSetting`, 1).
  case setting = 1
  /// Elements were inserted into a collection (`NSKeyValueChangeInsertion`, 2).
  case insertion = 2
  /// Elements were removed from a collection (`NSKeyValueChangeRemoval`, 3).
  case removal = 3
  /// Elements of a collection were replaced (`NSKeyValueChangeReplacement`, 4).
  case replacement = 4
}
