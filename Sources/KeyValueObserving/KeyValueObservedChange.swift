/// One notification: what kind of change happened, and the values a
/// registration asked for.
///
/// A value is present only when the registration's options asked for it:
/// ``newValue`` with ``KeyValueObservingOptions/new``, ``oldValue`` with
/// ``KeyValueObservingOptions/old``. For an optional property the two levels of
/// optionality stay apart: `nil` means "not requested", `.some(nil)` means
/// "the property held `nil`".
///
/// ```swift
/// let token = person.observe(\.nickname, options: [.old, .new]) { _, change in
///     if case .some(.none) = change.oldValue { print("had no nickname") }
/// }
/// ```
///
/// For to-many changes (``KeyValueChange/insertion``, ``KeyValueChange/removal``,
/// ``KeyValueChange/replacement``) `Value` is the collection type, ``indexes``
/// says where, and the old and new values hold only the affected elements.
public struct KeyValueObservedChange<Value> {
  /// What happened.
  ///
  /// ```swift
  /// if change.kind == .setting { print("assigned") }
  /// ```
  public let kind: KeyValueChange

  /// The value after the change, when ``KeyValueObservingOptions/new`` was
  /// requested and this is not a prior notification.
  ///
  /// ```swift
  /// print(change.newValue ?? "not requested")
  /// ```
  public let newValue: Value?

  /// The value before the change, when ``KeyValueObservingOptions/old`` was
  /// requested and this is not an initial notification.
  ///
  /// ```swift
  /// print(change.oldValue ?? "not requested")
  /// ```
  public let oldValue: Value?

  /// The positions a to-many change affected; `nil` for ``KeyValueChange/setting``.
  ///
  /// ```swift
  /// // person.mutableArrayValue(for: \.tags).insert("new", at: 2)
  /// change.indexes?.ranges  // [2..<3]
  /// ```
  public var indexes: KeyValueIndexSet? {
    positions.map(KeyValueIndexSet.init)
  }

  /// The positions (see ``IndexRanges`` for why not a `RangeSet`).
  @usableFromInline let positions: IndexRanges?

  /// `true` for the notification sent before a change to a registration
  /// that asked for ``KeyValueObservingOptions/prior``.
  ///
  /// ```swift
  /// if change.isPrior { print("about to change") }
  /// ```
  public let isPrior: Bool

  /// Makes a change record.
  ///
  /// The library makes these; the initializer is public so that tests and
  /// adapters can build expected values.
  ///
  /// ```swift
  /// let expected = KeyValueObservedChange(kind: .setting, newValue: 2, oldValue: 1)
  /// let inserted = KeyValueObservedChange(kind: .insertion, newValue: ["a"], indexes: [2..<3])
  /// ```
  public init(
    kind: KeyValueChange,
    newValue: Value? = nil,
    oldValue: Value? = nil,
    indexes: KeyValueIndexSet? = nil,
    isPrior: Bool = false
  ) {
    self.init(kind: kind, newValue: newValue, oldValue: oldValue, positions: indexes?.positions, isPrior: isPrior)
  }

  /// A change whose positions are already ranges.
  @inlinable
  init(kind: KeyValueChange, newValue: Value?, oldValue: Value?, positions: IndexRanges?, isPrior: Bool) {
    self.kind = kind
    self.newValue = newValue
    self.oldValue = oldValue
    self.positions = positions
    self.isPrior = isPrior
  }

  /// A change without indexes: what every assignment reports.
  @inlinable
  init(kind: KeyValueChange, newValue: Value?, oldValue: Value?, isPrior: Bool) {
    self.init(kind: kind, newValue: newValue, oldValue: oldValue, positions: nil, isPrior: isPrior)
  }

  /// The change as a registration that asked for `options` receives it:
  /// the new value only if it asked for `.new`, the old one only if it
  /// asked for `.old`. Every notification is trimmed to its registration's
  /// options here.
  ///
  /// The values are borrowed, and copied only into the change: unoptimised,
  /// a value passed to be consumed is first copied in the caller's frame,
  /// which for the change path is the frame handlers are called under.
  @inlinable
  init(
    kind: KeyValueChange,
    newValue: borrowing Value?,
    oldValue: borrowing Value?,
    positions: borrowing IndexRanges? = nil,
    isPrior: Bool,
    trimmedTo options: KeyValueObservingOptions
  ) {
    self.init(
      kind: kind,
      newValue: options.contains(.new) ? copy newValue : nil,
      oldValue: options.contains(.old) ? copy oldValue : nil,
      positions: copy positions,
      isPrior: isPrior
    )
  }
}

extension KeyValueObservedChange: Sendable where Value: Sendable {}
extension KeyValueObservedChange: Equatable where Value: Equatable {}
extension KeyValueObservedChange: Hashable where Value: Hashable {}

extension KeyValueObservedChange: CustomStringConvertible {
  /// A one-line summary, for example `setting old: 1 new: 2`.
  ///
  /// ```swift
  /// print(change)  // setting old: 1 new: 2
  /// ```
  public var description: String {
    var parts = ["\(kind)"]
    if isPrior { parts.append("prior") }
    if let oldValue { parts.append("old: \(oldValue)") }
    if let newValue { parts.append("new: \(newValue)") }
    if let indexes { parts.append("indexes: \(indexes)") }
    return parts.joined(separator: " ")
  }
}
