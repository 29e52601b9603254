// A controller's block takes the isolation of the code that registers it,
// as `observe`'s handler does: in a debug build, each call checks that it
// runs there. (The forms that deliver to the observer's `observeValue`
// are not checked: that method's isolation is the observer's own, not the
// registering code's, as with `addObserver`.)

extension KVOController {
  /// `handler`, checking on each call, in a debug build, that it runs on
  /// `isolation`; `handler` itself otherwise.
  ///
  /// ```swift
  /// let handler = Self.checking(isolatedTo: isolation, for: keyPath) { object, change in … }
  /// ```
  static func checking<Object: KeyValueObservable, Value>(
    isolatedTo isolation: (any Actor)?,
    for keyPath: KeyPath<Object, Value>,
    _ handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) -> (Object, KeyValueObservedChange<Value>) -> Void {
    guard let actor = isolationCheckedInDebugBuilds(isolation) else { return handler }
    return { object, change in
      actor.preconditionIsolated(offActorMessage("\(Object.self).\(Object.describe(keyPath))", actor: actor))
      handler(object, change)
    }
  }

  /// A string-keyed `handler`, checking on each call, in a debug build,
  /// that it runs on `isolation`; `handler` itself otherwise.
  ///
  /// ```swift
  /// let handler = Self.checking(isolatedTo: isolation) { observer, object, keyPath, change, _ in … }
  /// ```
  static func checking(isolatedTo isolation: (any Actor)?, _ handler: @escaping StringKeyHandler) -> StringKeyHandler {
    guard let actor = isolationCheckedInDebugBuilds(isolation) else { return handler }
    return { observer, object, keyPath, change, context in
      actor.preconditionIsolated(offActorMessage("\(type(of: object)).\(keyPath)", actor: actor))
      handler(observer, object, keyPath, change, context)
    }
  }

  /// What the check says when `key` changed off `actor`.
  private static func offActorMessage(_ key: String, actor: any Actor) -> String {
    """
    KeyValueObserving: \(key) changed off \(actor), the actor the block of KVOController<\(Observer.self)> is \
    isolated to (it was registered there). Change it on \(actor), or register from nonisolated code a block that \
    is safe on any thread.
    """
  }
}
