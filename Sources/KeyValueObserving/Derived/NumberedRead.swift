/// The number of a read of a derived value, and the dependencies the read
/// can be checked against, when there is such a list (see
/// ``DerivedObservationBase/trackRead(_:_:)``).
@usableFromInline
struct NumberedRead {
  @usableFromInline let number: Int
  @usableFromInline let expected: RegisteredDependencies?
  /// The address of the registration with the last dependency, when asked
  /// for and one can be checked.
  @usableFromInline let last: UnsafeMutableRawPointer?
}
