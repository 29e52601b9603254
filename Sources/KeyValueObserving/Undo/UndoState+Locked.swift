extension LockedState where State == UndoState {
  /// Records `change` under the lock (``UndoState/record(_:of:of:from:automaticGroups:repeating:)``),
  /// comparing it with a change it may repeat with no lock held; what the
  /// state lets go of is released after the lock.
  ///
  /// Locked by hand, so that the change is moved into the state, not
  /// copied into a closure.
  func record(
    _ change: consuming KeyValueObservedChange<Any>,
    of key: GraphKeyReference,
    of object: AnyObject,
    from recording: Int,
    automaticGroups: Bool
  ) -> UndoState.Recorded {
    lock()
    var repeated: Int?
    if state.pointee.mayRepeat(from: recording) {
      repeated = keptCountOfRepeat(change, of: key, of: object, from: recording)
    }
    // What the change cleared, and the change when it was not kept, are in
    // the result, released by the caller after the lock.
    let result = state.pointee.record(
      change, of: key, of: object, from: recording, automaticGroups: automaticGroups, repeating: repeated
    )
    unlock()
    return result
  }

  /// The count of kept changes when the change kept last was taken, if
  /// `change` is that change heard again; called and returning locked.
  @inline(never)
  private func keptCountOfRepeat(
    _ change: borrowing KeyValueObservedChange<Any>, of key: GraphKeyReference, of object: AnyObject, from recording: Int
  ) -> Int? {
    let earlier = state.pointee.possibleRepeat(of: object, from: recording)
    guard earlier != nil else { return nil }
    // Compared with no lock held: `==` is the values' own code, and the
    // copy of the earlier change is released before the lock.
    unlock()
    let repeated = Self.keptCount(of: earlier, ifRepeatedBy: change, of: key, of: object)
    lock()
    return repeated
  }

  /// `earlier`'s count of kept changes, when `change` is `earlier`'s
  /// change heard again; the copy of it released here.
  private static func keptCount(
    of earlier: consuming (change: RecordedChange, kept: Int)?,
    ifRepeatedBy change: KeyValueObservedChange<Any>,
    of key: GraphKeyReference,
    of object: AnyObject
  ) -> Int? {
    guard let earlier, earlier.change.isSame(change, of: key, of: object) else { return nil }
    return earlier.kept
  }
}
