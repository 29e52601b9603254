/// The value a change dictionary holds for a property that holds `nil`: the
/// key is present (the value was asked for), and the value casts to nothing.
var changeDictionaryNil: Any { Any?.none as Any }

/// An empty change dictionary with room for every key.
nonisolated(unsafe) let emptyChangeDictionary = [KeyValueChangeKey: Any](minimumCapacity: 5)

extension KeyValueObservedChange {
  /// The change as the dictionary a ``KeyValueObserver`` receives, holding
  /// what `options` asked for (see ``KeyValueChangeKey``).
  ///
  /// ```swift
  /// change.dictionary(options: [.new])  // [.kind: .setting, .new: 3]
  /// ```
  ///
  /// `mayBeOptional` is `false` when `Value` is known not to be an optional
  /// type, which spares a dynamic cast per value.
  func dictionary(
    options: KeyValueObservingOptions,
    isInitial: Bool = false,
    mayBeOptional: Bool = true
  ) -> [KeyValueChangeKey: Any] {
    changeDictionary(
      kind: kind,
      newValue: newValue.map { $0 as Any },
      oldValue: oldValue.map { $0 as Any },
      indexRanges: indexRanges,
      isPrior: isPrior,
      isInitial: isInitial,
      options: options,
      mayBeOptional: mayBeOptional
    )
  }
}

/// A change dictionary from a change's parts, its values boxed: built
/// without generic code, so that the delivery loop only boxes the values.
func changeDictionary(
  kind: KeyValueChange,
  newValue: Any?,
  oldValue: Any?,
  indexRanges: [Range<Int>]?,
  isPrior: Bool,
  isInitial: Bool,
  options: KeyValueObservingOptions,
  mayBeOptional: Bool
) -> [KeyValueChangeKey: Any] {
  func present(_ value: Any?) -> Any {
    guard mayBeOptional else { return value ?? changeDictionaryNil }
    return flattened(value) ?? changeDictionaryNil
  }
  // Room for every key a change can have, allocated once, by copying an
  // empty dictionary of that capacity (which skips a generic lookup); the
  // keys are spelled out, as their static constants are lazily initialised
  // globals.
  var dictionary = emptyChangeDictionary
  dictionary[KeyValueChangeKey(rawValue: "kind")] = kind
  let hasNew = kind != .removal && !isPrior
  let hasOld = kind != .insertion && !isInitial
  if options.contains(.new) && hasNew {
    dictionary[KeyValueChangeKey(rawValue: "new")] = present(newValue)
  }
  if options.contains(.old) && hasOld {
    dictionary[KeyValueChangeKey(rawValue: "old")] = present(oldValue)
  }
  if let indexRanges {
    dictionary[.indexes] = RangeSet(indexRanges)
  }
  if isPrior {
    dictionary[.notificationIsPrior] = true
  }
  return dictionary
}
