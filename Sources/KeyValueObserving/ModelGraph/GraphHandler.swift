/// What a model graph hands each change to: the closure of
/// `observeGraph`'s, or a subclass's ``receive(_:slot:in:kind:oldValue:newValue:positions:isPrior:)``
/// (an undo stack's recording, which keeps each change without copying
/// its values).
///
/// A class, so that reading it under the graph's lock retains one
/// reference, and calling it retains nothing more.
class GraphHandler {
  /// The actor a debug build checks each change is made on, naming its
  /// key when it is not; `nil` in a release build.
  final let isolation: (any Actor)?
  /// Whether a setting of an `Equatable` key to a value `==` the old one
  /// is left out, as an undo stack would drop it: compared before the
  /// values were boxed (``EqualSettingDroppingNode``).
  final let dropsEqualSettings: Bool
  /// The handler of `observeGraph`, handed each change as a record that
  /// borrows its parts (``BorrowingGraphHandler``); `nil` for a subclass,
  /// which receives the parts. Called where the change arrives, with no
  /// call of the class's between: one cost a write about 25 instructions,
  /// in moves of the values.
  final let changeHandler: BorrowingGraphHandler?

  /// A handler of `observeGraph`'s.
  init(isolation: (any Actor)?, changeHandler: @escaping (KeyValueGraphChange) -> Void) {
    self.isolation = isolationCheckedInDebugBuilds(isolation)
    dropsEqualSettings = false
    self.changeHandler = BorrowingGraphHandler(changeHandler)
  }

  /// A subclass's, which overrides ``receive(_:slot:in:kind:oldValue:newValue:positions:isPrior:)``.
  init(isolation: (any Actor)?, dropsEqualSettings: Bool) {
    self.isolation = isolationCheckedInDebugBuilds(isolation)
    self.dropsEqualSettings = dropsEqualSettings
    changeHandler = nil
  }

  /// Hands the handler a change of the key at `slot` of `object`, a
  /// `graphClass`: its parts, put together once, where they are used (a
  /// change record built on the way was moved, byte by byte, at every
  /// call it passed through).
  @inline(__always)
  final func deliver(
    _ object: AnyObject,
    slot: Int,
    in graphClass: GraphClass,
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>?,
    newValue: UnsafePointer<Any?>?,
    positions: IndexRanges?,
    isPrior: Bool
  ) {
    if let isolation {
      isolation.preconditionIsolated(
        """
        KeyValueObserving: \(type(of: object)).\(graphClass.keys[slot].name) changed off \(isolation), the actor the \
        model graph's handler is isolated to (observeGraph was called there).
        """
      )
    }
    guard changeHandler != nil else {
      return receive(object, slot: slot, in: graphClass, kind: kind, oldValue: oldValue, newValue: newValue, positions: positions, isPrior: isPrior)
    }
    changeHandler?(object, slot: slot, in: graphClass, kind: kind, oldValue: oldValue, newValue: newValue, positions: positions, isPrior: isPrior)
  }

  /// Receives a change's parts, when there is no ``changeHandler``;
  /// overridden.
  func receive(
    _ object: AnyObject,
    slot: Int,
    in graphClass: GraphClass,
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>?,
    newValue: UnsafePointer<Any?>?,
    positions: IndexRanges?,
    isPrior: Bool
  ) {}
}
