/// Whether `lhs` and `rhs` are both there and `==`; `false` when either is
/// `nil` or `Value` is not `Equatable`.
///
/// For code generic over a value whose conformance is not required:
/// specialised for a concrete `Value`, the cast and the opening fold away,
/// and an `Int`'s comparison is one instruction. The same comparison on
/// the two values boxed as `Any` cost about 190 instructions.
@inlinable
func areEqualIfEquatable<Value>(_ lhs: borrowing Value?, _ rhs: borrowing Value?) -> Bool {
  guard let lhs = copy lhs, let rhs = copy rhs, let equatable = Value.self as? any Equatable.Type else { return false }
  func compare<Type: Equatable>(_: Type.Type) -> Bool {
    // `Type` is `Value`, as the cast found.
    unsafeBitCast(lhs, to: Type.self) == unsafeBitCast(rhs, to: Type.self)
  }
  return compare(equatable)
}
