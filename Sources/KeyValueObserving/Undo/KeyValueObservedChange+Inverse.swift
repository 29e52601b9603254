extension KeyValueObservedChange {
  /// The change that undoes this one: a setting back to the old value, a
  /// removal for an insertion and an insertion for a removal at the same
  /// indexes, a replacement that puts the old elements back.
  ///
  /// The inverse swaps the old and new values and keeps the indexes, so
  /// the inverse of the inverse is the change itself. Apply it with
  /// ``KeyValueObservable/apply(_:to:)``; it can be applied when the
  /// change was observed with `.old` (and `.new`, to apply it again).
  ///
  /// | change | inverse |
  /// |---|---|
  /// | `.setting`, old `a`, new `b` | `.setting`, old `b`, new `a` |
  /// | `.insertion` of new elements at indexes | `.removal` of them (old) at the same indexes |
  /// | `.removal` of old elements at indexes | `.insertion` of them (new) at the same indexes |
  /// | `.replacement`, old and new elements at indexes | `.replacement` with the two swapped |
  ///
  /// A set's changes carry no indexes and invert the same way: an
  /// insertion becomes a removal of the elements it added, and so on.
  ///
  /// ```swift
  /// let token = person.observe(\.name, options: [.old, .new]) { person, change in
  ///     lastChange = change
  /// }
  /// person.name = "Grace"
  /// try person.apply(lastChange!.inverse, to: \.name)  // person.name is "Ada" again
  /// ```
  public var inverse: KeyValueObservedChange<Value> {
    let inverseKind: KeyValueChange =
      switch kind {
      case .insertion: .removal
      case .removal: .insertion
      case .setting, .replacement: kind
      }
    return KeyValueObservedChange(
      kind: inverseKind, newValue: oldValue, oldValue: newValue, positions: positions, isPrior: isPrior
    )
  }
}

extension KeyValueGraphChange {
  /// The change that undoes this one, on the same object and key: see
  /// ``KeyValueObservedChange/inverse``.
  ///
  /// ```swift
  /// let token = document.observeGraph { change in changes.append(change) }
  /// document.title = "Draft"
  /// try changes.last!.inverse.apply()  // the title is back
  /// ```
  public var inverse: KeyValueGraphChange {
    KeyValueGraphChange(object: object, key: keyReference, change: change.inverse)
  }
}
