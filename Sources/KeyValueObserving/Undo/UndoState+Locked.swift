extension LockedState where State == UndoState {
  /// Records a change's `content` under the lock (``UndoState/record(_:of:of:from:automaticGroups:repeating:)``),
  /// comparing it with a change it may repeat with no lock held; what the
  /// state lets go of is released after the lock.
  ///
  /// Locked by hand, so that the change is moved into the state, not
  /// copied into a closure; inlined into the recording's one call.
  @inline(__always)
  func record(
    _ content: consuming RecordedChange.Content,
    of key: Unmanaged<GraphKey>,
    of object: AnyObject,
    from recording: Int,
    automaticGroups: Bool
  ) -> UndoState.Recorded {
    lock()
    var repeated = false
    if state.pointee.mayRepeat {
      repeated = isRepeat(content, of: key, of: object, from: recording)
    }
    // What the change cleared, and the change when it was not kept, are in
    // the result, released by the caller after the lock.
    let result = state.pointee.record(
      consume content, of: key, of: object, from: recording, automaticGroups: automaticGroups, repeating: repeated
    )
    unlock()
    return result
  }

  /// Whether `content` is a change another recording kept, heard again;
  /// called and returning locked.
  ///
  /// Compared with no lock held: `==` is the values' own code, and the
  /// copy of the kept change is released before the lock. The answer
  /// holds whatever changes meanwhile: a change kept, undone or dropped
  /// since was still heard once before.
  @inline(never)
  private func isRepeat(
    _ content: borrowing RecordedChange.Content, of key: Unmanaged<GraphKey>, of object: AnyObject, from recording: Int
  ) -> Bool {
    let earlier = state.pointee.possibleRepeat(of: object, key: key, from: recording)
    guard earlier != nil else { return false }
    unlock()
    let repeated = Self.isSame(earlier, content, of: key, of: object)
    lock()
    return repeated
  }

  /// Whether `content` is `earlier`'s change heard again; the copy of it
  /// released here.
  private static func isSame(
    _ earlier: consuming RecordedChange?,
    _ content: borrowing RecordedChange.Content,
    of key: Unmanaged<GraphKey>,
    of object: AnyObject
  ) -> Bool {
    guard let earlier else { return false }
    return earlier.isSame(copy content, of: key, of: object)
  }
}
