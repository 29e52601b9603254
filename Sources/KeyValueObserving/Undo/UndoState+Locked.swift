extension LockedState where State == UndoState {
  /// Records a change's `content` under the lock (``UndoState/record(_:of:of:from:automaticGroups:repeating:)``),
  /// comparing it with a change it may repeat with no lock held; what the
  /// state lets go of is released after the lock.
  ///
  /// Locked by hand, so that the change is moved into the state, not
  /// copied into a closure.
  func record(
    _ content: consuming RecordedChange.Content,
    of key: Unmanaged<GraphKey>,
    of object: AnyObject,
    from recording: Int,
    automaticGroups: Bool
  ) -> UndoState.Recorded {
    lock()
    var repeated: Int?
    if state.pointee.mayRepeat(from: recording) {
      repeated = keptCountOfRepeat(content, of: key, of: object, from: recording)
    }
    // What the change cleared, and the change when it was not kept, are in
    // the result, released by the caller after the lock.
    let result = state.pointee.record(
      consume content, of: key, of: object, from: recording, automaticGroups: automaticGroups, repeating: repeated
    )
    unlock()
    return result
  }

  /// The count of kept changes when the change kept last was taken, if
  /// `content` is that change's heard again; called and returning locked.
  @inline(never)
  private func keptCountOfRepeat(
    _ content: borrowing RecordedChange.Content, of key: Unmanaged<GraphKey>, of object: AnyObject, from recording: Int
  ) -> Int? {
    let earlier = state.pointee.possibleRepeat(of: object, from: recording)
    guard earlier != nil else { return nil }
    // Compared with no lock held: `==` is the values' own code, and the
    // copy of the earlier change is released before the lock.
    unlock()
    let repeated = Self.keptCount(of: earlier, ifRepeatedBy: content, of: key, of: object)
    lock()
    return repeated
  }

  /// `earlier`'s count of kept changes, when `content` is `earlier`'s
  /// change heard again; the copy of it released here.
  private static func keptCount(
    of earlier: consuming (change: RecordedChange, kept: Int)?,
    ifRepeatedBy content: borrowing RecordedChange.Content,
    of key: Unmanaged<GraphKey>,
    of object: AnyObject
  ) -> Int? {
    guard let earlier, earlier.change.isSame(copy content, of: key, of: object) else { return nil }
    return earlier.kept
  }
}
