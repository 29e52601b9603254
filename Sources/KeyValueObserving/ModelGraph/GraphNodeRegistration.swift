/// The registration of one object of a model graph: filed in every slot of
/// the object's storage (``_KeyValueRegistration/everyKeySlot``), so that
/// one registration hears each of its keys.
///
/// Holds the storage, so that the graph can take it out whenever it
/// leaves, and its class's entry in the graph, through which each change
/// reaches the graph.
class GraphNodeRegistration: _KeyValueErasedRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  /// The object's identity: its key among the graph's nodes, valid while
  /// the registration is filed (the object is alive until it closes).
  final let objectID: ObjectIdentifier
  final let storage: _KeyValueObservationStorage
  final let graphClass: GraphClass
  /// How many links of the graph's objects lead here (the root: one
  /// more). Guarded by the graph's lock.
  final var incoming = 0

  required init(
    options: KeyValueObservingOptions,
    object: ObjectIdentifier,
    storage: _KeyValueObservationStorage,
    graphClass: GraphClass
  ) {
    objectID = object
    self.storage = storage
    self.graphClass = graphClass
    super.init(options: options, slot: Self.nodeSlot, receiver: .dictionary)
  }

  override func receive(
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>,
    newValue: UnsafePointer<Any?>,
    indexRanges: IndexRanges?,
    isPrior: Bool,
    from object: AnyObject,
    slot: Int,
    valuesAreEqual: Bool
  ) {
    GraphObservation.changed(
      object, slot: slot, in: graphClass, heardBy: self,
      kind: kind, oldValue: oldValue, newValue: newValue, positions: indexRanges, isPrior: isPrior
    )
  }

  /// The slot number the node is filed under: one that hears every key.
  class var nodeSlot: Int { everyKeySlot }

  /// Taken out by the graph itself: nothing to tell it.
  override func registrationEnded() {}

  /// The object deinitialised: it leaves the graph.
  override func registrationClosed() {
    graphClass.graph._withUnsafeGuaranteedRef { $0.nodeFreed(self) }
  }

  override var observerDescription: String { "model graph (observeGraph)" }

  override var keyDescription: String? { "every key" }
}

/// A graph node whose handler drops a setting to an equal value
/// (``GraphHandler/dropsEqualSettings``), as an undo stack's does. The
/// values are compared before they were boxed, where their type is known
/// (`valuesAreEqual`), because of the slot number it is filed under. A
/// class of its own, so that other graphs' changes pay nothing for it.
final class EqualSettingDroppingNode: GraphNodeRegistration, @unchecked Sendable {
  /// Filed where the change loop compares each setting's values for it.
  override class var nodeSlot: Int { everyKeyComparingSettingsSlot }

  override func receive(
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>,
    newValue: UnsafePointer<Any?>,
    indexRanges: IndexRanges?,
    isPrior: Bool,
    from object: AnyObject,
    slot: Int,
    valuesAreEqual: Bool
  ) {
    GraphObservation.changed(
      object, slot: slot, in: graphClass, heardBy: self, equalSetting: valuesAreEqual,
      kind: kind, oldValue: oldValue, newValue: newValue, positions: indexRanges, isPrior: isPrior
    )
  }
}
