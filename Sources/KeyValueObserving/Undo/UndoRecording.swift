/// What a recording (``KeyValueUndoStack/record(_:isolation:fileID:line:)``)
/// hands the changes of its graph to: its stack, with the recording's
/// number, each change moved, not copied.
final class UndoRecording: GraphHandler {
  let stack: KeyValueUndoStack
  let number: Int

  init(stack: KeyValueUndoStack, number: Int, isolation: (any Actor)?) {
    self.stack = stack
    self.number = number
    super.init(isolation: isolation, dropsEqualSettings: true)
  }

  override func receive(_ object: AnyObject, slot: Int, in graphClass: GraphClass, _ change: consuming KeyValueObservedChange<Any>) {
    stack.record(change, of: object, GraphKeyReference(interned: graphClass.keys[slot]), from: number)
  }
}
