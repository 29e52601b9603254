/// One side of a two-way binding: the object whose `bind` was called
/// (``source``) or the object it binds to (``target``).
///
/// ```swift
/// // The field shows the model's value at once; after that, either side leads.
/// let token = model.bind(\.nickname, twoWayTo: \.text, on: field, placeholder: "", initialValueFrom: .source)
/// ```
public enum KeyValueBindingSide: Sendable, Hashable {
  /// The object whose `bind` was called.
  case source
  /// The object it binds to.
  case target
}
