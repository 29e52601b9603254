/// What a model graph hands each change to: ``GraphChangeHandler``, a
/// handler of `observeGraph`'s, or the library's own (an undo stack's
/// recording, which keeps each change without copying its values).
///
/// A class, so that reading it under the graph's lock retains one
/// reference, and calling it retains nothing more.
class GraphHandler {
  /// The actor a debug build checks each change is made on, naming its
  /// key when it is not; `nil` in a release build.
  final let isolation: (any Actor)?
  /// Whether a setting of an `Equatable` key to a value `==` the old one
  /// is left out, as an undo stack would drop it. Compared where the
  /// registration is handed the values it owns (``GraphNodeRegistration``):
  /// later, each value was copied out of its optional to be compared.
  final let dropsEqualSettings: Bool

  init(isolation: (any Actor)?, dropsEqualSettings: Bool = false) {
    self.isolation = isolationCheckedInDebugBuilds(isolation)
    self.dropsEqualSettings = dropsEqualSettings
  }

  /// Hands the handler a change of the key at `slot` of `object`, a
  /// `graphClass`, to keep.
  @inline(__always)
  final func deliver(_ object: AnyObject, slot: Int, in graphClass: GraphClass, _ change: consuming KeyValueObservedChange<Any>) {
    if let isolation {
      isolation.preconditionIsolated(
        """
        KeyValueObserving: \(type(of: object)).\(graphClass.keys[slot].name) changed off \(isolation), the actor the \
        model graph's handler is isolated to (observeGraph was called there).
        """
      )
    }
    receive(object, slot: slot, in: graphClass, change)
  }

  /// Receives a change; overridden.
  func receive(_ object: AnyObject, slot: Int, in graphClass: GraphClass, _ change: consuming KeyValueObservedChange<Any>) {}
}

/// A handler of `observeGraph`'s: each change as a record it borrows.
final class GraphChangeHandler: GraphHandler {
  let handler: (KeyValueGraphChange) -> Void

  init(isolation: (any Actor)?, handler: @escaping (KeyValueGraphChange) -> Void) {
    self.handler = handler
    super.init(isolation: isolation)
  }

  override func receive(_ object: AnyObject, slot: Int, in graphClass: GraphClass, _ change: consuming KeyValueObservedChange<Any>) {
    handler(KeyValueGraphChange(object: graphClass.observable(object), key: GraphKeyReference(interned: graphClass.keys[slot]), change: change))
  }
}
