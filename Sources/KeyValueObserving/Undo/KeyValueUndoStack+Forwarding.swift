extension KeyValueUndoStack {
  /// Hands each step the stack makes to `register`, with its name and the
  /// call that replays it, so that another undo manager drives the stack:
  /// an `UndoManager`, whose Edit menu and document dirty state then
  /// follow it, on Apple platforms.
  ///
  /// ```swift
  /// undo.forwardSteps { name, replay in
  ///     undoManager.registerUndo(withTarget: document) { _ in try? replay() }
  ///     undoManager.setActionName(name)
  /// }
  /// ```
  ///
  /// A step closed by recording, or by a redo, comes with ``undo()`` as
  /// its replay; a step an undo made, with ``redo()``. The manager calls
  /// the replay when its user undoes, and records the step that replay
  /// makes, as `UndoManager` records what its undo registers, for redo.
  /// Then undo and redo through the manager, not the stack. Steps closed
  /// before the call are not handed over. A replay that fails keeps its
  /// step on the stack and is not handed over again.
  ///
  /// `register` is called on the stack's actor, after the change that
  /// closed the step, with no lock held.
  public func forwardSteps(
    to register: @escaping (_ name: String, _ replay: @escaping () throws(KeyValueCodingError) -> Void) -> Void
  ) {
    installForwarder(register)
  }
}
