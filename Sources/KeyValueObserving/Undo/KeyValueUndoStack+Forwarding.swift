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
  /// closed the step, with no lock held. The stack keeps it until
  /// ``stopForwardingSteps()``, or until another call replaces it. A
  /// replay holds the stack weakly: the manager keeps no freed stack
  /// alive, and a replay called after the stack is freed does nothing.
  public func forwardSteps(
    to register: @escaping (_ name: String, _ replay: @escaping () throws(KeyValueCodingError) -> Void) -> Void
  ) {
    installForwarder(register)
  }

  /// Ends ``forwardSteps(to:)``: later steps stay on the stack alone, and
  /// the handler is released, with what it captured (the manager, say).
  /// Replays handed over before still work while the stack lives.
  ///
  /// ```swift
  /// undo.stopForwardingSteps()   // the document's window closed
  /// ```
  public func stopForwardingSteps() {
    installForwarder(nil)
  }
}
