/// A registration that receives changes with their values boxed, built
/// where the values' type is known: a classic observer's (which makes a
/// change dictionary of them) and a model graph's (which hears every key of
/// an object). Its receiver is `.dictionary`.
///
/// Not API.
@usableFromInline
class _KeyValueErasedRegistration: _KeyValueRegistration, @unchecked Sendable {
  /// Receives one change of the key at `slot` of `object`, its values
  /// boxed and borrowed for the call (``_KeyValueBorrowedAny``): read
  /// `pointee` to keep one. `valuesAreEqual` says a setting's two values are `==` by
  /// their own type's `==`, compared before they were boxed
  /// (``areEqualIfEquatable(_:_:)``), for a registration filed under
  /// ``_KeyValueRegistration/everyKeyComparingSettingsSlot``; `false` for
  /// any other. Overridden; the base does nothing.
  @usableFromInline
  func receive(
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>,
    newValue: UnsafePointer<Any?>,
    indexRanges: IndexRanges?,
    isPrior: Bool,
    from object: AnyObject,
    slot: Int,
    valuesAreEqual: Bool
  ) {}
}
