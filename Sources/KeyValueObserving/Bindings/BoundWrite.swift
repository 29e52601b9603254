/// What one write of a binding did to the side it wrote.
@usableFromInline
enum BoundWrite {
  /// The side already held the value (`Equatable` values only): nothing
  /// was written, and nobody was told.
  case unchanged
  /// The side was written and holds the value.
  case written
  /// The side was written, and holds another value now: its own `didSet`,
  /// or an observer, corrected it. The binding carries the correction back.
  case corrected
}

extension ReferenceWritableKeyPath {
  /// Writes `value` to `object` through this key path, as a binding does:
  /// not at all when the property holds an equal value already, and, with
  /// `verifying`, reading it back to see whether the write was corrected.
  /// `equality` is `Value`'s `Equatable` conformance, if it has one;
  /// without it, every write is made and none is verified.
  ///
  /// ```swift
  /// let outcome = (\Field.text).bindingWrite("Ada", to: field, equality: String.self, verifying: true)
  /// ```
  @inlinable @inline(__always)
  func bindingWrite(
    _ value: Value,
    to object: Root,
    equality: (any Equatable.Type)?,
    verifying: Bool
  ) -> BoundWrite {
    guard let equality else {
      object[keyPath: self] = value
      return .written
    }
    if boundValuesEqual(object[keyPath: self], value, equality) { return .unchanged }
    object[keyPath: self] = value
    guard verifying else { return .written }
    return boundValuesEqual(object[keyPath: self], value, equality) ? .written : .corrected
  }
}

/// Whether `lhs` equals `rhs`, compared by `equality`, the `Equatable`
/// conformance of their type: found once, when the binding is made, and
/// called here with no cast of the values.
@usableFromInline
func boundValuesEqual<Value>(_ lhs: Value, _ rhs: Value, _ equality: any Equatable.Type) -> Bool {
  withUnsafePointer(to: lhs) { lhs in
    withUnsafePointer(to: rhs) { rhs in
      equality.valuesEqual(UnsafeRawPointer(lhs), UnsafeRawPointer(rhs))
    }
  }
}

extension Equatable {
  /// Whether the values at `lhs` and `rhs`, both of this type, are equal.
  fileprivate static func valuesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    lhs.assumingMemoryBound(to: Self.self).pointee == rhs.assumingMemoryBound(to: Self.self).pointee
  }
}
