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
  /// not at all when the property holds an equal value already (or the
  /// very same one, for a value not equal to itself: a `Double.nan`), and, with
  /// `verifying`, reading it back to see whether the write was corrected.
  /// Only a `Value` that is `Equatable` is compared; any other is always
  /// written, and never verified.
  ///
  /// A write to a computed property, whose setter announces nothing
  /// itself, is announced through `announcing` (see
  /// ``ComputedWriteAnnouncement``); `nil` for any other.
  ///
  /// Called from an accessor specialised for its key path and types (see
  /// ``BindingAccessor``), where the optimiser resolves the `Equatable`
  /// conformance at compile time and compares directly.
  ///
  /// ```swift
  /// let outcome = (\Field.text).bindingWrite("Ada", to: field, verifying: true, announcing: nil)
  /// ```
  @inlinable @inline(__always)
  func bindingWrite(
    _ value: Value, to object: Root, verifying: Bool, announcing announced: Unmanaged<ComputedWriteAnnouncement>?
  ) -> BoundWrite {
    guard let equality = Value.self as? any Equatable.Type else {
      write(value, to: object, announcing: announced)
      return .written
    }
    if boundValuesEqual(object[keyPath: self], value, equality)
      || boundValuesIdentical(object[keyPath: self], value, equality)
    {
      return .unchanged
    }
    write(value, to: object, announcing: announced)
    guard verifying else { return .written }
    return boundValuesEqual(object[keyPath: self], value, equality) ? .written : .corrected
  }

  /// Sets `value`, announced by `announced` when it is a computed
  /// property's write.
  @inlinable @inline(__always)
  func write(_ value: Value, to object: Root, announcing announced: Unmanaged<ComputedWriteAnnouncement>?) {
    // Unmanaged: the binding holds the announcement, and a retained
    // optional would cost every write a retain and a release.
    guard let announced else {
      object[keyPath: self] = value
      return
    }
    let announcing = announced._withUnsafeGuaranteedRef { $0.willWrite(on: object as AnyObject) }
    object[keyPath: self] = value
    announced._withUnsafeGuaranteedRef { $0.didWrite(announcing) }
  }
}

/// Whether `lhs` equals `rhs`, compared by `equality`, the `Equatable`
/// conformance of their type, with no cast of the values.
@inlinable @inline(__always)
func boundValuesEqual<Value>(_ lhs: Value, _ rhs: Value, _ equality: any Equatable.Type) -> Bool {
  func equal<Equal: Equatable>(_ type: Equal.Type) -> Bool {
    unsafeBitCast(lhs, to: Equal.self) == unsafeBitCast(rhs, to: Equal.self)
  }
  return _openExistential(equality, do: equal)
}

/// Whether `lhs` and `rhs`, unequal by their `Equatable` conformance, are
/// yet the same value: not equal to itself (a NaN, or a struct holding
/// one), and the same bits, of a type that is its bits (no references).
/// Without it a ring of bindings would carry a NaN round for ever. Where
/// every value equals itself (`Int`, `String`), the optimiser folds the
/// first test away.
@inlinable @inline(__always)
func boundValuesIdentical<Value>(_ lhs: Value, _ rhs: Value, _ equality: any Equatable.Type) -> Bool {
  guard _isPOD(Value.self), !boundValuesEqual(rhs, rhs, equality) else { return false }
  return withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
}
