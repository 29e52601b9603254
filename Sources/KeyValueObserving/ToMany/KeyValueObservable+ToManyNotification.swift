extension KeyValueObservable {
  /// Announces that the elements of the array at `keyPath` at `indexes` are
  /// about to be inserted, removed or replaced: observers that asked for
  /// `.prior` are notified now, and, for a removal or replacement, the
  /// elements at `indexes` are read for those that asked for `.old`.
  ///
  /// Pair it with ``didChange(_:valuesAt:for:)`` on the same thread, with
  /// the same kind and indexes. Observers receive a change of that `kind`,
  /// with `indexes`, whose old and new values hold only the elements at
  /// `indexes` (before the change for old, after it for new). Assignments to
  /// the property inside the pair fold into it, as for
  /// ``willChangeValue(for:)``: they are the change the pair announces. A
  /// change of the property made in a `.prior` callback of the pair is not,
  /// and makes the did a `.setting` of the whole array.
  /// ``KeyValueObservable/mutableArrayValue(for:)`` does all of this for you.
  ///
  /// Indexes out of the array's range are left out of the values and
  /// reported as ``KeyValueObservingDiagnostic/Kind/indexesOutOfRange``. A
  /// `kind` of `.setting` announces a whole new value and ignores `indexes`.
  ///
  /// ```swift
  /// person.willChange(.insertion, valuesAt: [2..<4], for: \.tags)
  /// person.tags.insert(contentsOf: ["a", "b"], at: 2)
  /// person.didChange(.insertion, valuesAt: [2..<4], for: \.tags)
  /// // observers of \.tags: kind .insertion, indexes 2..<4, new ["a", "b"]
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:valuesAt:for:_:)")
  public func willChange<Element>(
    _ kind: KeyValueChange,
    valuesAt indexes: KeyValueIndexSet,
    for keyPath: KeyPath<Self, [Element]>
  ) {
    willChange(kind, at: indexes.positions, for: keyPath)
  }

  /// Announces that the elements at `indexes` of the array at `keyPath`
  /// were inserted, removed or replaced: the outermost call of a pair reads
  /// the elements now at `indexes` (for an insertion or replacement) and
  /// notifies the observers. See ``willChange(_:valuesAt:for:)``.
  ///
  /// A call with no will-change of the key open on this thread notifies
  /// nothing and reports
  /// ``KeyValueObservingDiagnostic/Kind/unmatchedDidChange``.
  ///
  /// ```swift
  /// person.willChange(.removal, valuesAt: [0..<1], for: \.tags)
  /// person.tags.removeFirst()
  /// person.didChange(.removal, valuesAt: [0..<1], for: \.tags)
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:valuesAt:for:_:)")
  public func didChange<Element>(
    _ kind: KeyValueChange,
    valuesAt indexes: KeyValueIndexSet,
    for keyPath: KeyPath<Self, [Element]>
  ) {
    didChange(kind, at: indexes.positions, for: keyPath)
  }

  /// ``willChange(_:valuesAt:for:)`` with the indexes as sorted, disjoint
  /// ranges.
  @usableFromInline
  func willChange<Element>(_ kind: KeyValueChange, at ranges: IndexRanges, for keyPath: KeyPath<Self, [Element]>) {
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
    guard let slot = Self._$kvoSlot(for: keyPath), kind != .setting else {
      openChange(for: keyPath)
      return
    }
    storage.willChange(
      self,
      slot: slot,
      shape: ChangeShape(kind: kind, indexRanges: ranges),
      newValue: nil,
      oldValue: { $0.elements(of: keyPath, in: ranges) },
      value: { $0[keyPath: keyPath] }
    )
  }

  /// ``didChange(_:valuesAt:for:)`` with the indexes as sorted, disjoint
  /// ranges.
  @usableFromInline
  func didChange<Element>(_ kind: KeyValueChange, at ranges: IndexRanges, for keyPath: KeyPath<Self, [Element]>) {
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
    guard let slot = Self._$kvoSlot(for: keyPath), kind != .setting else {
      closeChange(for: keyPath)
      return
    }
    let closed = storage.didChange(
      self,
      slot: slot,
      newValue: { $0.elements(of: keyPath, in: ranges) },
      value: { $0[keyPath: keyPath] }
    )
    if !closed {
      reportProblem(
        .unmatchedDidChange,
        "didChange(.\(kind), valuesAt:, for: \(Self.describe(keyPath))) without a matching willChange on this thread; "
          + "nothing was notified"
      )
    }
  }

  private func elements<Element>(of keyPath: KeyPath<Self, [Element]>, in ranges: IndexRanges) -> [Element] {
    let array = self[keyPath: keyPath]
    let elements = array.elements(in: ranges)
    if !ranges.lie(within: array.count) {
      reportProblem(
        .indexesOutOfRange,
        "a change of \(Self.describe(keyPath)) names indexes \(KeyValueIndexSet(ranges)) but the array has "
          + "\(array.count.elementCount); "
          + "the change reports only the elements in range"
      )
    }
    return elements
  }
}

extension Array {
  /// The elements at `ranges` (sorted and disjoint), leaving out positions
  /// outside the array: what a to-many change's notification carries.
  @inlinable
  func elements(in ranges: IndexRanges) -> [Element] {
    if case .single(let lower, let upper) = ranges, lower >= 0, upper <= count {
      // One element (an append, an insertion): a literal, which allocates
      // without the generic copy of a slice.
      if upper - lower == 1 { return [self[Int(lower)]] }
      return Array(self[Int(lower)..<Int(upper)])
    }
    var elements: [Element] = []
    for range in ranges.ranges {
      elements.append(contentsOf: self[range.clamped(to: indices)])
    }
    return elements
  }


}
