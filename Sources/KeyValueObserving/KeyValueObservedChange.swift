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
  /// Where `RangeSet` is not available (before macOS 15 and iOS 18),
  /// ``indexRanges`` gives the same positions.
  ///
  /// ```swift
  /// if let indexes = change.indexes { print(indexes.ranges) }
  /// ```
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  public var indexes: RangeSet<Int>? {
    positions.map { RangeSet($0.ranges) }
  }

  /// The positions a to-many change affected, as sorted ranges that
  /// neither overlap nor touch (what `RangeSet.ranges` holds); `nil` for
  /// ``KeyValueChange/setting``. On every OS.
  ///
  /// ```swift
  /// // person.mutableArrayValue(for: \.tags).insert("new", at: 2)
  /// change.indexRanges  // [2..<3]
  /// ```
  public var indexRanges: [Range<Int>]? {
    positions?.mergedRanges
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
  /// let inserted = KeyValueObservedChange(kind: .insertion, newValue: ["a"], indexRanges: [2..<3])
  /// ```
  ///
  /// The positions of a to-many change, `indexRanges`, may come in any
  /// order; overlapping and touching ranges are merged.
  public init(
    kind: KeyValueChange,
    newValue: Value? = nil,
    oldValue: Value? = nil,
    indexRanges: [Range<Int>]? = nil,
    isPrior: Bool = false
  ) {
    self.init(kind: kind, newValue: newValue, oldValue: oldValue, positions: indexRanges.map(IndexRanges.init(normalizing:)), isPrior: isPrior)
  }

  /// Makes a change record of a to-many change at `indexes`.
  ///
  /// ```swift
  /// let expected = KeyValueObservedChange(kind: .insertion, newValue: ["a"], indexes: RangeSet(2..<3))
  /// ```
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  public init(
    kind: KeyValueChange,
    newValue: Value? = nil,
    oldValue: Value? = nil,
    indexes: RangeSet<Int>?,
    isPrior: Bool = false
  ) {
    self.init(kind: kind, newValue: newValue, oldValue: oldValue, positions: indexes.map { IndexRanges($0.ranges) }, isPrior: isPrior)
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
    if let indexRanges { parts.append("indexes: \(indexRanges)") }
    return parts.joined(separator: " ")
  }
}
