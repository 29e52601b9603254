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
  /// The witness table of the class's conformance to
  /// `KeyValueObservable`, read from its first object: with it, an object
  /// of the class is the observable it is with no cast and no call
  /// (``observable(_:)``).
  private let conformance: UnsafeRawPointer

  init(graph: GraphObservation, handler: GraphHandler, object: any KeyValueObservable) {
    let type = Swift.type(of: object)
    let count = type._$kvoKeyCount
    self.graph = .passRetained(graph)
    self.handler = handler
    let storages = (0..<count).map { object.erasedStorage(ofSlot: $0) }
    let shapes = storages.map { $0.map { GraphLinkShape($0.valueType) } ?? .none }
    keys = GraphKey.interned(for: object, storages: storages)
    self.storages = storages
    self.shapes = shapes
    linkSlots = shapes.indices.filter { shapes[$0] != .none }
    // `as`: not opened, so that the existential itself is cast.
    conformance = unsafeBitCast(object as any KeyValueObservable, to: ClassExistential.self).conformance
    // A requirement called through the existential made: its witness table.
    assert(Swift.type(of: observable(object))._$kvoKeyCount == count, "KeyValueObserving: a class-bound existential's layout changed")
  }

  /// An object of the class as the observable it is. A class-bound
  /// existential is the reference and the conformance's witness table,
  /// so the two are put together as one: the object retained once, for
  /// the existential (the class's `observable` function, called here,
  /// cost 14 instructions more).
  @inline(__always)
  func observable(_ object: AnyObject) -> any KeyValueObservable {
    unsafeBitCast(ClassExistential(object: object, conformance: conformance), to: (any KeyValueObservable).self)
  }

  /// The key at `slot`, one of the class's slots, read with no bounds
  /// check: a change's slot is its storage's, which has the class's keys.
  @inline(__always)
  func key(at slot: Int) -> GraphKey {
    keys.withUnsafeBufferPointer { $0[slot] }
  }

  /// Whether the key at `slot` can hold objects to follow, likewise.
  @inline(__always)
  func shape(at slot: Int) -> GraphLinkShape {
    shapes.withUnsafeBufferPointer { $0[slot] }
  }

  /// The bits of an object of the class as the observable it is, its
  /// object not retained: valid while `object` lives, and never to be
  /// destroyed (see ``BorrowingGraphHandler``).
  @inline(__always)
  func borrowedObservableBits(_ object: AnyObject) -> BorrowedClassExistential {
    BorrowedClassExistential(object: Unmanaged.passUnretained(object).toOpaque(), conformance: conformance)
  }

  /// The layout of `any KeyValueObservable`.
  private struct ClassExistential {
    let object: AnyObject
    let conformance: UnsafeRawPointer
  }

  /// The same layout, its object not retained.
  struct BorrowedClassExistential {
    let object: UnsafeMutableRawPointer
    let conformance: UnsafeRawPointer
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
