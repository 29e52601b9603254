/// What a recording (``KeyValueUndoStack/record(_:isolation:fileID:line:)``)
/// hands the changes of its graph to: its stack, with the recording's
/// number, and what undoing each change needs, copied from the borrowed
/// boxes (``RecordedChange/Content``). A change that leaves its property
/// as it was is dropped here.
final class UndoRecording: GraphHandler {
  let stack: KeyValueUndoStack
  let number: Int

  init(stack: KeyValueUndoStack, number: Int, isolation: (any Actor)?) {
    self.stack = stack
    self.number = number
    super.init(isolation: isolation, dropsEqualSettings: true)
  }

  override func receive(
    _ object: AnyObject,
    slot: Int,
    in graphClass: GraphClass,
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>?,
    newValue: UnsafePointer<Any?>?,
    positions: IndexRanges?,
    isPrior: Bool
  ) {
    guard !isPrior else { return }
    // Interned for good: read and handed on with no retain.
    let key = Unmanaged.passUnretained(graphClass.keys[slot])
    let content: RecordedChange.Content
    if kind == .setting {
      // A setting of an `Equatable` key to an equal value never arrives
      // (``GraphHandler/dropsEqualSettings``); another key's is compared
      // here, as `changesNothing()` does.
      if !key._withUnsafeGuaranteedRef(\.isEquatable), let oldValue = oldValue?.pointee, let newValue = newValue?.pointee,
        valuesEqual(oldValue, newValue)
      {
        return
      }
      content = .setting(oldValue: oldValue?.copiedBox)
    } else {
      let change = KeyValueObservedChange(
        kind: kind, newValue: newValue?.copiedBox, oldValue: oldValue?.copiedBox, positions: positions, isPrior: false
      )
      guard !change.changesNothing() else { return }
      content = .elements(change)
    }
    stack.record(consume content, of: key, of: object, from: number)
  }
}
