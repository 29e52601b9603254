/// The value a change dictionary holds for a property that holds `nil`: the
/// key is present (the value was asked for), and the value casts to nothing.
var changeDictionaryNil: Any { Any?.none as Any }

extension KeyValueObservedChange {
  /// The change as the dictionary a ``KeyValueObserver`` receives, holding
  /// what `options` asked for (see ``KeyValueChangeKey``).
  ///
  /// ```swift
  /// change.dictionary(options: [.new])  // [.kind: .setting, .new: 3]
  /// ```
  func dictionary(options: KeyValueObservingOptions, isInitial: Bool = false) -> [KeyValueChangeKey: Any] {
    var dictionary: [KeyValueChangeKey: Any] = [.kind: kind]
    let hasNew = kind != .removal && !isPrior
    let hasOld = kind != .insertion && !isInitial
    if options.contains(.new) && hasNew {
      dictionary[.new] = flattened(newValue) ?? changeDictionaryNil
    }
    if options.contains(.old) && hasOld {
      dictionary[.old] = flattened(oldValue) ?? changeDictionaryNil
    }
    if let indexes {
      dictionary[.indexes] = indexes
    }
    if isPrior {
      dictionary[.notificationIsPrior] = true
    }
    return dictionary
  }
}
