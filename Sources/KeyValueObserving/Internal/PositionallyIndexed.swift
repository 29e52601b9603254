/// The collections whose subscript by position stops the program outside
/// their bounds, and which an observed key path may index.
protocol PositionallyIndexed {
  /// The type a position gives.
  static var elementType: Any.Type { get }
}

extension Array: PositionallyIndexed {
  static var elementType: Any.Type { Element.self }
}

extension ContiguousArray: PositionallyIndexed {
  static var elementType: Any.Type { Element.self }
}

extension ArraySlice: PositionallyIndexed {
  static var elementType: Any.Type { Element.self }
}
