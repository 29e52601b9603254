extension KeyValueObservable {
  /// `handler`, checking on each call that it runs on `actor`, the actor
  /// it is isolated to: a debug build's check of
  /// ``observe(_:options:isolation:fileID:line:changeHandler:)``. A call anywhere else
  /// stops the process, in this function, with a message that names the
  /// class and the key where the platform prints it (the main actor's
  /// check on Linux stops it through dispatch's queue assertion, whose
  /// backtrace shows this function).
  @usableFromInline
  static func checking<Value>(
    _ handler: @escaping (Self, KeyValueObservedChange<Value>) -> Void,
    runsOn actor: any Actor,
    for keyPath: KeyPath<Self, Value>
  ) -> (Self, KeyValueObservedChange<Value>) -> Void {
    { object, change in
      actor.preconditionIsolated(
        """
        KeyValueObserving: \(Self.self).\(Self.describe(keyPath)) changed off \(actor), the actor the \
        observation's handler is isolated to (it was registered there). To be called there whoever changes \
        it, observe with observeOnMainActor(_:options:changeHandler:) or observe(_:options:on:changeHandler:).
        """
      )
      handler(object, change)
    }
  }
}

/// `isolation` in a debug build, where handlers check that they run there;
/// `nil` in an optimised one, which folds the configuration to false.
@inlinable @inline(__always)
func isolationCheckedInDebugBuilds(_ isolation: (any Actor)?) -> (any Actor)? {
  // A selection, not a branch: a branch on the folded configuration
  // leaves code the compiler warns will never be executed.
  _isDebugAssertConfiguration() && isolation != nil ? isolation : nil
}
