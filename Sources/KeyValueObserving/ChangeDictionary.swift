/// The value a change dictionary holds for a property that holds `nil`: the
/// key is present (the value was asked for), and the value casts to nothing.
var changeDictionaryNil: Any { Any?.none as Any }

/// An empty change dictionary with room for every key.
nonisolated(unsafe) let emptyChangeDictionary = [KeyValueChangeKey: Any](minimumCapacity: 5)

extension KeyValueObservedChange {
  /// The change as the dictionary a ``KeyValueObserver`` receives, holding
  /// what `options` asked for (see ``KeyValueChangeKey``).
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
      indexRanges: positions,
      isPrior: isPrior,
      isInitial: isInitial,
      options: options,
      mayBeOptional: mayBeOptional
    )
  }
}

/// A change dictionary from a change's parts, its values boxed: built
/// without generic code, so that the notification loop only boxes the values.
/// The one place that decides what a change dictionary holds (a
/// ``SettingDictionary`` holds the same keys for a setting).
func changeDictionary(
  kind: KeyValueChange,
  newValue: Any?,
  oldValue: Any?,
  indexRanges: IndexRanges?,
  isPrior: Bool,
  isInitial: Bool,
  options: KeyValueObservingOptions,
  mayBeOptional: Bool
) -> [KeyValueChangeKey: Any] {
  // Room for every key a change can have, allocated once, by copying an
  // empty dictionary of that capacity (which skips a generic lookup); the
  // keys are spelled out, as their static constants are lazily initialised
  // globals.
  var dictionary = emptyChangeDictionary
  dictionary[KeyValueChangeKey(rawValue: "kind")] = kind
  let shape = ChangeShape(kind: kind, indexRanges: indexRanges)
  let hasNew = shape.hasNewValue && !isPrior
  let hasOld = shape.hasOldValue && !isInitial
  if options.contains(.new) && hasNew {
    dictionary[KeyValueChangeKey(rawValue: "new")] = presentedChangeValue(newValue, mayBeOptional: mayBeOptional)
  }
  if options.contains(.old) && hasOld {
    dictionary[KeyValueChangeKey(rawValue: "old")] = presentedChangeValue(oldValue, mayBeOptional: mayBeOptional)
  }
  if let indexRanges {
    dictionary[.indexes] = KeyValueIndexSet(indexRanges)
  }
  if isPrior {
    dictionary[.notificationIsPrior] = true
  }
  return dictionary
}

/// A value as a change dictionary holds it: unwrapped from every level of
/// optionality (when `mayBeOptional`), `nil` as ``changeDictionaryNil``.
func presentedChangeValue(_ value: consuming Any?, mayBeOptional: Bool) -> Any {
  // Consumed, not copied: a copy of an `Any?` goes through the runtime's
  // generic value witnesses.
  switch consume value {
  case .none: return changeDictionaryNil
  case .some(let value): return mayBeOptional ? flattened(value) ?? changeDictionaryNil : value
  }
}

/// The change dictionary of a classic registration's settings, kept between
/// changes: its keys (`kind`, and `new` and `old` as the options ask) stay
/// in place and each change only replaces their values, found by index, so
/// that a change neither allocates, hashes, nor frees a dictionary.
///
/// The values are replaced by a placeholder after each delivery, so that
/// the buffer holds no value past the change. An observer that keeps the
/// dictionary it was given keeps its own copy: the next change finds the
/// storage shared and copies it (copy on write, which keeps every entry in
/// its bucket, so the indexes stay valid).
final class SettingDictionary {
  @exclusivity(unchecked) private(set) var dictionary = emptyChangeDictionary
  private let newIndex: [KeyValueChangeKey: Any].Index?
  private let oldIndex: [KeyValueChangeKey: Any].Index?

  /// What a key holds between changes: a value with nothing to release.
  private static var placeholder: Any { KeyValueChange.setting }

  init(options: KeyValueObservingOptions) {
    dictionary[KeyValueChangeKey(rawValue: "kind")] = KeyValueChange.setting
    if options.contains(.new) { dictionary[KeyValueChangeKey(rawValue: "new")] = Self.placeholder }
    if options.contains(.old) { dictionary[KeyValueChangeKey(rawValue: "old")] = Self.placeholder }
    // Indexes taken once every key is in: an insertion may move entries.
    newIndex = options.contains(.new) ? dictionary.index(forKey: KeyValueChangeKey(rawValue: "new")) : nil
    oldIndex = options.contains(.old) ? dictionary.index(forKey: KeyValueChangeKey(rawValue: "old")) : nil
  }

  /// Puts a setting's values in, as a change dictionary presents them
  /// (see ``presentedChangeValue(_:mayBeOptional:)``); a value the options
  /// did not ask for is not presented at all.
  func fill(newValue: consuming Any?, oldValue: consuming Any?, mayBeOptional: Bool) {
    if let newIndex { dictionary.values[newIndex] = presentedChangeValue(newValue, mayBeOptional: mayBeOptional) }
    if let oldIndex { dictionary.values[oldIndex] = presentedChangeValue(oldValue, mayBeOptional: mayBeOptional) }
  }

  /// Releases the values of the last change.
  func empty() {
    if let newIndex { dictionary.values[newIndex] = Self.placeholder }
    if let oldIndex { dictionary.values[oldIndex] = Self.placeholder }
  }
}
