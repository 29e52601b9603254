/// What a model graph needs to know about one class of its objects: each
/// key's name, key path and storage, and which keys can hold objects it
/// follows. Worked out once per graph and class, at its first object.
final class GraphClass {
  /// The graph: kept alive by its classes while their objects' nodes are
  /// filed, so that a change under way always reaches it. The graph lets
  /// go of its classes when it ends.
  ///
  /// Retained by hand, and released when the class is freed: a change
  /// borrows it (`_withUnsafeGuaranteedRef`), where a strong reference's
  /// load cost it a retain and a release (40 instructions).
  let graph: Unmanaged<GraphObservation>
  /// The graph's handler, read without its lock: the nodes' registrations
  /// hold their classes, so that a change under way reaches it, and let
  /// go of it when the graph takes them out.
  let handler: GraphHandler
  /// The keys' names and key paths, by slot, interned; the key paths
  /// rooted at the classes that declare them.
  let keys: [GraphKey]
  /// Whether each key can hold objects to follow, by slot.
  let shapes: [GraphLinkShape]
  /// The keys' storages, by slot: `nil` where the key table hands none
  /// (an override's).
  let storages: [(any ErasedPropertyStorage)?]
  /// The slots whose values may hold objects to follow.
  let linkSlots: [Int]
  /// The object as the observable it is, without a dynamic cast.
  let observable: (AnyObject) -> any KeyValueObservable

  init(graph: GraphObservation, handler: GraphHandler, object: any KeyValueObservable) {
    let type = Swift.type(of: object)
    let count = type._$kvoKeyCount
    self.graph = .passRetained(graph)
    self.handler = handler
    let storages = (0..<count).map { object.erasedStorage(ofSlot: $0) }
    let shapes = storages.map { $0.map { GraphLinkShape($0.valueType) } ?? .none }
    let observable = type._$kvoKeys.classFunctions.observable
    keys = GraphKey.interned(for: object, storages: storages)
    self.storages = storages
    self.shapes = shapes
    linkSlots = shapes.indices.filter { shapes[$0] != .none }
    self.observable = observable
  }

  deinit {
    graph.release()
  }

  /// The objects the key at `slot` of `object` holds now.
  func objects(at slot: Int, of object: AnyObject, keeping kept: inout [Any]) -> [AnyObject] {
    guard let storage = storages[slot] else { return [] }
    let value = storage.erasedValue(of: object)
    var objects: [AnyObject] = []
    graphObjects(in: value, into: &objects)
    // Released after the graph's lock, with the rest of what it read.
    kept.append(value)
    return objects
  }
}
