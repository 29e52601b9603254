/// One key of a class in a model graph: its key path and its name, made
/// once per graph and class and shared by every change of the key, so that
/// a change retains one reference for both.
final class GraphKey {
  let keyPath: AnyKeyPath
  let name: String
  /// `==` on two of the key's values, boxed, when its type is `Equatable`:
  /// the conformance found once, here, not at every setting an undo
  /// stack's recording compares (``EqualSettingDroppingNode``).
  let equal: ((Any, Any) -> Bool)?
  /// An object of the key's class as the observable it is, without a
  /// dynamic cast: for an undo stack, which holds the objects it changes
  /// weakly, as `AnyObject`.
  let observable: (AnyObject) -> (any KeyValueObservable)?

  init(
    keyPath: AnyKeyPath,
    name: String,
    valueType: Any.Type? = nil,
    observable: @escaping (AnyObject) -> (any KeyValueObservable)? = { $0 as? any KeyValueObservable }
  ) {
    self.keyPath = keyPath
    self.name = name
    equal = (valueType as? any Equatable.Type)?.equalityOfBoxedValues
    self.observable = observable
  }
}

extension Equatable {
  /// `==` on two values of this type, boxed; `false` when either is not of
  /// it.
  ///
  /// The boxes are opened, not cast: `as? Self` on both cost 700
  /// instructions a comparison (two dynamic casts and the metadata of
  /// `Self?`), a fifth of recording an undo step.
  fileprivate static var equalityOfBoxedValues: (Any, Any) -> Bool {
    { lhs, rhs in isEqual(opening: lhs, rhs) }
  }

  private static func isEqual<Left>(opening lhs: Left, _ rhs: Any) -> Bool {
    func compare<Right>(_ rhs: Right) -> Bool {
      // The same type, so the bits are a value of it.
      guard Left.self == Self.self, Right.self == Self.self else { return false }
      return unsafeBitCast(lhs, to: Self.self) == unsafeBitCast(rhs, to: Self.self)
    }
    return compare(rhs)
  }
}
