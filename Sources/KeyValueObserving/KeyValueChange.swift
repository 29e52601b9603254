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
public enum KeyValueChange: Sendable, Hashable {
  /// The whole value was assigned.
  case setting
  /// Elements were inserted into a collection.
  case insertion
  /// Elements were removed from a collection.
  case removal
  /// Elements of a collection were replaced.
  case replacement
}
