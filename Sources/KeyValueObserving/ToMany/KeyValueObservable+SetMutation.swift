extension KeyValueObservable {
  /// Runs `body` as one set mutation of the `Set` property at `keyPath`,
  /// announced as Apple's `willChangeValueForKey:withSetMutation:usingObjects:`
  /// pair announces it (see ``KeyValueSetMutation`` for what observers
  /// receive), and returns what `body` returns.
  ///
  /// What the mutation adds and removes is worked out before `body` runs,
  /// from the set as it is then and `objects`; `body` should make that
  /// change. Assignments to the property inside `body` fold into this one
  /// notification; one made in a `.prior` callback of it makes that
  /// notification a `.setting` of the whole set. Usable from async code:
  /// the body is synchronous.
  ///
  /// ```swift
  /// team.withChange(.minus, using: [7], for: \.memberIDs) {
  ///     team.memberIDs.subtract([7])
  /// }   // observers: .removal, old = [7] if 7 was a member
  /// ```
  ///
  /// - Parameters:
  ///   - mutation: How the set changes.
  ///   - objects: The objects the mutation uses.
  ///   - keyPath: The `Set` property.
  ///   - body: The synchronous work that changes it.
  /// - Returns: What `body` returns.
  @discardableResult
  public func withChange<Element: Hashable, Result, Failure: Error>(
    _ mutation: KeyValueSetMutation,
    using objects: Set<Element>,
    for keyPath: ReferenceWritableKeyPath<Self, Set<Element>>,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    openSetChange(mutation, using: objects, for: keyPath)
    defer { closeSetChange(mutation, for: keyPath) }
    return try body()
  }

  /// Announces that the `Set` property at `keyPath` is about to change by
  /// `mutation` with `objects`: Apple's
  /// `willChangeValueForKey:withSetMutation:usingObjects:`. Observers that
  /// asked for `.prior` are notified now.
  ///
  /// Pair it with ``didChange(_:using:for:)`` on the same thread, or use
  /// ``withChange(_:using:for:_:)``.
  ///
  /// ```swift
  /// team.willChange(.set, using: [1, 2], for: \.memberIDs)
  /// team.memberIDs = [1, 2]
  /// team.didChange(.set, using: [1, 2], for: \.memberIDs)
  /// // observers: .replacement, old = the ids removed, new = the ids added
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:using:for:_:)")
  public func willChange<Element: Hashable>(
    _ mutation: KeyValueSetMutation,
    using objects: Set<Element>,
    for keyPath: ReferenceWritableKeyPath<Self, Set<Element>>
  ) {
    openSetChange(mutation, using: objects, for: keyPath)
  }

  /// Announces that the set mutation opened by
  /// ``willChange(_:using:for:)`` happened: the outermost call notifies,
  /// with what the will worked out. Without a matching will on this thread
  /// it notifies nothing and reports
  /// ``KeyValueObservingDiagnostic/Kind/unmatchedDidChange``.
  ///
  /// ```swift
  /// team.didChange(.union, using: [7], for: \.memberIDs)
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(_:using:for:_:)")
  public func didChange<Element: Hashable>(
    _ mutation: KeyValueSetMutation,
    using objects: Set<Element>,
    for keyPath: ReferenceWritableKeyPath<Self, Set<Element>>
  ) {
    closeSetChange(mutation, for: keyPath)
  }

  /// Opens a set mutation: works out what it drops and adds from the set
  /// now, when someone observes the object.
  func openSetChange<Element: Hashable>(
    _ mutation: KeyValueSetMutation,
    using objects: Set<Element>,
    for keyPath: KeyPath<Self, Set<Element>>
  ) {
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
    guard let slot = Self._$kvoSlot(for: keyPath) else {
      openChange(for: keyPath)
      return
    }
    let (dropped, added) = mutation.effect(on: self[keyPath: keyPath], using: objects)
    storage.willChange(
      self,
      slot: slot,
      shape: ChangeShape(kind: mutation.changeKind, indexRanges: nil),
      newValue: added,
      oldValue: { _ in dropped },
      value: { $0[keyPath: keyPath] }
    )
  }

  /// Closes a set mutation opened by ``openSetChange(_:using:for:)``.
  func closeSetChange<Element: Hashable>(_ mutation: KeyValueSetMutation, for keyPath: KeyPath<Self, Set<Element>>) {
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
    guard let slot = Self._$kvoSlot(for: keyPath) else {
      closeChange(for: keyPath)
      return
    }
    // The new value was worked out at the will; the whole set is read for
    // a mutation another change of the key folded into.
    if !storage.didChange(self, slot: slot, newValue: { _ in Set<Element>() }, value: { $0[keyPath: keyPath] }) {
      reportProblem(
        .unmatchedDidChange,
        "didChange(.\(mutation), using:, for: \(Self.describe(keyPath))) without a matching willChange on this thread; "
          + "nothing was notified"
      )
    }
  }
}
