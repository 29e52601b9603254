// 0.1.0's spellings of a change's positions, kept so that code written
// against it compiles with a fix-it. Removed in 2.0.

extension KeyValueObservedChange {
  /// The positions as sorted ranges; use ``indexes`` and its
  /// ``KeyValueIndexSet/ranges``.
  ///
  /// ```swift
  /// change.indexes?.ranges  // was change.indexRanges
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "use indexes?.ranges")
  public var indexRanges: [Range<Int>]? {
    positions?.mergedRanges
  }

  /// A change record at ranges; use ``init(kind:newValue:oldValue:indexes:isPrior:)``,
  /// which takes the same array literal.
  ///
  /// ```swift
  /// KeyValueObservedChange(kind: .insertion, newValue: ["a"], indexes: [2..<3])
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "init(kind:newValue:oldValue:indexes:isPrior:)")
  public init(
    kind: KeyValueChange,
    newValue: Value? = nil,
    oldValue: Value? = nil,
    indexRanges: [Range<Int>]?,
    isPrior: Bool = false
  ) {
    self.init(kind: kind, newValue: newValue, oldValue: oldValue, indexes: indexRanges.map(KeyValueIndexSet.init), isPrior: isPrior)
  }

  /// A change record at a `RangeSet`; use ``init(kind:newValue:oldValue:indexes:isPrior:)``
  /// with a ``KeyValueIndexSet``.
  ///
  /// ```swift
  /// KeyValueObservedChange(kind: .insertion, newValue: ["a"], indexes: KeyValueIndexSet(rangeSet))
  /// ```
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "pass a KeyValueIndexSet: indexes: KeyValueIndexSet(rangeSet)")
  public init(
    kind: KeyValueChange,
    newValue: Value? = nil,
    oldValue: Value? = nil,
    indexes: RangeSet<Int>,
    isPrior: Bool = false
  ) {
    self.init(kind: kind, newValue: newValue, oldValue: oldValue, indexes: KeyValueIndexSet(indexes), isPrior: isPrior)
  }
}
