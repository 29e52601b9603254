/// Lets key-value coding tell optional types and values apart at run time.
@usableFromInline
protocol OptionalValue {
  /// The wrapped value, or `nil`.
  var wrappedValue: Any? { get }
  /// The type's `nil`.
  static var nilValue: Any { get }
  /// The wrapped type.
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
  @usableFromInline var wrappedValue: Any? { map { $0 as Any } }
  @usableFromInline static var nilValue: Any { Wrapped?.none as Any }
  @usableFromInline static var wrappedType: Any.Type { Wrapped.self }
}

/// A value with every level of optionality taken off: `nil` for an optional
/// holding `nil` at any depth, the innermost value otherwise.
@usableFromInline
func flattened(_ value: Any?) -> Any? {
  var current = value
  while let value = current, let optional = value as? any OptionalValue {
    current = optional.wrappedValue
  }
  return current
}

/// `type` with every level of optionality taken off.
func unwrappedType(_ type: Any.Type) -> Any.Type {
  var current = type
  while let optional = current as? any OptionalValue.Type {
    current = optional.wrappedType
  }
  return current
}
