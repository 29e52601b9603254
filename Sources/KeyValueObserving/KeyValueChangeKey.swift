/// A key of the change dictionary a ``KeyValueObserver`` receives.
///
/// What each key holds:
/// - ``kind``: the ``KeyValueChange``; always present.
/// - ``new``: the value after the change, when the options hold `.new` and
///   the change is not a prior one; for an insertion or replacement in a
///   to-many property, the collection of the elements inserted.
/// - ``old``: the value before the change, when the options hold `.old`;
///   for a removal or replacement, the collection of the elements removed.
///   Never present in `.initial` notifications.
/// - ``indexes``: the ``KeyValueIndexSet`` of the positions an array change
///   touched; only in array changes.
/// - ``notificationIsPrior``: `true`, only in the notification sent before
///   a change (option `.prior`).
/// - ``keyPath``: the observed key path, only in changes a
///   `KVOController` hands to a block that serves several key paths.
///
/// A value is present as the value itself, not wrapped in an optional: for
/// a `String?` property holding `"Ada"`, `change[.new] as? String` is
/// `"Ada"`. A property holding `nil` is reported with the key present and a
/// value that casts to nothing, so `change[.new] != nil` says the value was
/// asked for while `change[.new] as? String` is `nil`.
///
/// ```swift
/// let kind = change[.kind] as? KeyValueChange   // .setting
/// let name = change[.new] as? String
/// let isPrior = change[.notificationIsPrior] as? Bool ?? false
/// ```
public struct KeyValueChangeKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The key's name, such as `"new"`.
  public let rawValue: String

  /// The key named `rawValue`.
  ///
  /// ```swift
  /// let key = KeyValueChangeKey(rawValue: "new")  // == .new
  /// ```
  @inlinable
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The key's name.
  ///
  /// ```swift
  /// print(KeyValueChangeKey.new)  // "new"
  /// ```
  public var description: String { rawValue }

  /// Whether two keys have the same name.
  ///
  /// ```swift
  /// KeyValueChangeKey(rawValue: "old") == .old  // true
  /// ```
  public static func == (lhs: KeyValueChangeKey, rhs: KeyValueChangeKey) -> Bool {
    lhs.rawValue == rhs.rawValue
  }

  /// Hashes the name's length and first byte: consistent with `==`, enough
  /// to tell the standard keys apart, and cheaper than hashing the string
  /// on every change delivered.
  ///
  /// ```swift
  /// var hasher = Hasher()
  /// KeyValueChangeKey.new.hash(into: &hasher)
  /// ```
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rawValue.utf8.count)
    hasher.combine(rawValue.utf8.first)
  }

  /// The hash a `Dictionary` asks for: the same length and first byte,
  /// mixed with the dictionary's seed without running a `Hasher`, which
  /// would cost more than the rest of an insertion. Every change delivered
  /// to a classic observer builds a dictionary of these keys; the few
  /// standard keys all hash apart.
  ///
  /// ```swift
  /// let change: [KeyValueChangeKey: Any] = [.kind: KeyValueChange.setting]
  /// ```
  public func _rawHashValue(seed: Int) -> Int {
    let first = Int(rawValue.utf8.first ?? 0)
    // An odd multiplier spreads the two small numbers over the word.
    return (rawValue.utf8.count &<< 8 | first) &* -7_046_029_254_386_353_131 ^ seed
  }

  /// The kind of change, a ``KeyValueChange``.
  ///
  /// ```swift
  /// change[.kind] as? KeyValueChange == .insertion
  /// ```
  public static let kind = KeyValueChangeKey(rawValue: "kind")

  /// The value after the change.
  ///
  /// ```swift
  /// change[.new] as? Int
  /// ```
  public static let new = KeyValueChangeKey(rawValue: "new")

  /// The value before the change.
  ///
  /// ```swift
  /// change[.old] as? Int
  /// ```
  public static let old = KeyValueChangeKey(rawValue: "old")

  /// The positions an array change touched: a ``KeyValueIndexSet`` on
  /// every OS, which converts to `IndexSet` and `RangeSet`.
  ///
  /// ```swift
  /// (change[.indexes] as? KeyValueIndexSet)?.ranges  // [2..<4]
  /// ```
  public static let indexes = KeyValueChangeKey(rawValue: "indexes")

  /// `true` in the notification sent before a change.
  ///
  /// ```swift
  /// change[.notificationIsPrior] as? Bool == true
  /// ```
  public static let notificationIsPrior = KeyValueChangeKey(rawValue: "notificationIsPrior")

  /// The key path that changed, for blocks that observe several.
  ///
  /// ```swift
  /// change[.keyPath] as? String == "name"
  /// ```
  public static let keyPath = KeyValueChangeKey(rawValue: "keyPath")
}
