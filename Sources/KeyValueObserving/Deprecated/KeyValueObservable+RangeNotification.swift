// 0.1.0's to-many manual notification forms, which took a `RangeSet` or
// an array of ranges. ``KeyValueIndexSet`` takes both spellings now, on
// every OS: `valuesAt: [2..<4]`. Removed in 2.0.

extension KeyValueObservable {
  /// Use ``willChange(_:valuesAt:for:)`` with a ``KeyValueIndexSet``.
  ///
  /// ```swift
  /// person.willChange(.insertion, valuesAt: KeyValueIndexSet(rangeSet), for: \.tags)
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:valuesAt:for:_:)")
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "pass a KeyValueIndexSet: valuesAt: KeyValueIndexSet(rangeSet)")
  public func willChange<Element>(_ kind: KeyValueChange, valuesAt indexes: RangeSet<Int>, for keyPath: KeyPath<Self, [Element]>) {
    willChange(kind, valuesAt: KeyValueIndexSet(indexes), for: keyPath)
  }

  /// Use ``didChange(_:valuesAt:for:)`` with a ``KeyValueIndexSet``.
  ///
  /// ```swift
  /// person.didChange(.insertion, valuesAt: KeyValueIndexSet(rangeSet), for: \.tags)
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:valuesAt:for:_:)")
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "pass a KeyValueIndexSet: valuesAt: KeyValueIndexSet(rangeSet)")
  public func didChange<Element>(_ kind: KeyValueChange, valuesAt indexes: RangeSet<Int>, for keyPath: KeyPath<Self, [Element]>) {
    didChange(kind, valuesAt: KeyValueIndexSet(indexes), for: keyPath)
  }

  /// Use ``withChange(_:valuesAt:for:_:)`` with a ``KeyValueIndexSet``.
  ///
  /// ```swift
  /// person.withChange(.insertion, valuesAt: KeyValueIndexSet(rangeSet), for: \.tags) { … }
  /// ```
  @discardableResult
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @_documentation(visibility: internal)
  @available(*, deprecated, message: "pass a KeyValueIndexSet: valuesAt: KeyValueIndexSet(rangeSet)")
  public func withChange<Element, Result, Failure: Error>(
    _ kind: KeyValueChange,
    valuesAt indexes: RangeSet<Int>,
    for keyPath: KeyPath<Self, [Element]>,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withChange(kind, valuesAt: KeyValueIndexSet(indexes), for: keyPath, body)
  }

  /// Use ``willChange(_:valuesAt:for:)``, which takes the same ranges.
  ///
  /// ```swift
  /// person.willChange(.insertion, valuesAt: [2..<4], for: \.tags)
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:valuesAt:for:_:)")
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "willChange(_:valuesAt:for:)")
  public func willChange<Element>(_ kind: KeyValueChange, valuesIn ranges: [Range<Int>], for keyPath: KeyPath<Self, [Element]>) {
    willChange(kind, valuesAt: KeyValueIndexSet(ranges), for: keyPath)
  }

  /// Use ``didChange(_:valuesAt:for:)``, which takes the same ranges.
  ///
  /// ```swift
  /// person.didChange(.insertion, valuesAt: [2..<4], for: \.tags)
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:valuesAt:for:_:)")
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "didChange(_:valuesAt:for:)")
  public func didChange<Element>(_ kind: KeyValueChange, valuesIn ranges: [Range<Int>], for keyPath: KeyPath<Self, [Element]>) {
    didChange(kind, valuesAt: KeyValueIndexSet(ranges), for: keyPath)
  }

  /// Use ``withChange(_:valuesAt:for:_:)``, which takes the same ranges.
  ///
  /// ```swift
  /// person.withChange(.insertion, valuesAt: [2..<4], for: \.tags) { … }
  /// ```
  @discardableResult
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "withChange(_:valuesAt:for:_:)")
  public func withChange<Element, Result, Failure: Error>(
    _ kind: KeyValueChange,
    valuesIn ranges: [Range<Int>],
    for keyPath: KeyPath<Self, [Element]>,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withChange(kind, valuesAt: KeyValueIndexSet(ranges), for: keyPath, body)
  }
}
