/// What a recording (``KeyValueUndoStack/record(_:isolation:fileID:line:)``)
/// hands the changes of its graph to: its stack, with the recording's
/// number, each change's values copied from the borrowed boxes.
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
    // Made here, from the parts: a change record made first was moved
    // into the recorded change byte by byte.
    stack.record(
      KeyValueObservedChange(
        kind: kind, newValue: newValue?.copiedBox, oldValue: oldValue?.copiedBox, positions: positions, isPrior: false
      ),
      of: GraphKeyReference(interned: graphClass.keys[slot]), of: object, from: number
    )
  }
}
