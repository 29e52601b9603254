extension PropertyBinding {
  /// Stops the process, in a debug build, when `side` changed off
  /// `actor`, the actor the binding was made on: its write would run off
  /// it, where the target (a label on the main actor) must not be touched.
  /// The message names the class and the key that changed.
  @usableFromInline
  func checkIsolation(_ actor: any Actor, changed side: KeyValueBindingSide) {
    actor.preconditionIsolated(
      """
      KeyValueObserving: \(side == .source ? sourceKeyDescription : "\(Target.self).\(targetKeyDescription)") changed \
      off \(actor), the actor the \(description) was made on, and the binding writes on the thread of the change. \
      Change it on \(actor), or make the binding in nonisolated code if both objects may be written on any thread.
      """
    )
  }
}
