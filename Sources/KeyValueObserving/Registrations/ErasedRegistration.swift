/// A registration that receives changes with their values boxed, built
/// where the values' type is known: a classic observer's (which makes a
/// change dictionary of them) and a model graph's (which hears every key of
/// an object). Its receiver is `.dictionary`.
///
/// Not API.
@usableFromInline
class _KeyValueErasedRegistration: _KeyValueRegistration, @unchecked Sendable {
  /// Receives one change of the key at `slot` of `object`, its values
  /// boxed. `valuesAreEqual` compares the two with their own type's `==`,
  /// before they were boxed (``areEqualIfEquatable(_:_:)``): an
  /// ``EqualSettingDroppingNode`` asks it of a setting, the others never
  /// call it. Overridden; the base does nothing.
  @usableFromInline
  func receive(
    kind: KeyValueChange,
    oldValue: consuming Any?,
    newValue: consuming Any?,
    indexRanges: IndexRanges?,
    isPrior: Bool,
    from object: AnyObject,
    slot: Int,
    valuesAreEqual: () -> Bool
  ) {}
}
