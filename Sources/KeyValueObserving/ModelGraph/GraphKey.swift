/// One key of a class in a model graph: its key path and its name, made
/// once per class and kept for good (``interned(for:storages:)``), so that
/// a change of the key holds it without a retain (``GraphKeyReference``).
final class GraphKey {
  let keyPath: AnyKeyPath
  let name: String
  /// Whether the key's type is `Equatable`: a setting of such a key to
  /// an equal value never reaches an undo stack
  /// (``GraphHandler/dropsEqualSettings``).
  let isEquatable: Bool
  /// An object of the key's class as the observable it is, without a
  /// dynamic cast: for an undo stack, which holds the objects it changes
  /// weakly, as `AnyObject`.
  let observable: (AnyObject) -> (any KeyValueObservable)?

  init(
    keyPath: AnyKeyPath,
    name: String,
    valueType: Any.Type? = nil,
    observable: @escaping (AnyObject) -> (any KeyValueObservable)? = { $0 as? any KeyValueObservable }
  ) {
    self.keyPath = keyPath
    self.name = name
    isEquatable = valueType.map { $0 is any Equatable.Type } ?? false
    self.observable = observable
  }
}

extension GraphKey {
  /// The keys of each class a graph has held an object of, by slot: made
  /// once and never freed, so that a reference to one needs no retain.
  /// There is one array per class, as there is one key table.
  private static let interned = LockedState([ObjectIdentifier: [GraphKey]]())

  /// The keys of `object`'s class, by slot, `storages` its keys' storages:
  /// made at the first graph that holds an object of the class, and kept.
  static func interned(
    for object: any KeyValueObservable,
    storages: [(any ErasedPropertyStorage)?]
  ) -> [GraphKey] {
    let type = Swift.type(of: object)
    let id = ObjectIdentifier(type)
    if let keys = interned.withLock({ $0[id] }) { return keys }
    let observable = type._$kvoKeys.classFunctions.observable
    let made = storages.indices.map {
      GraphKey(
        keyPath: type._$kvoKeyPath(forSlot: $0) ?? \KeyValueGraphChange.key,
        name: type._$kvoKey(forSlot: $0) ?? "#\($0)",
        valueType: storages[$0]?.valueType,
        observable: observable
      )
    }
    // Made outside the lock; a class's first keys win, so that every
    // change of a key refers to one object.
    return interned.withLock { keys in
      if let first = keys[id] { return first }
      keys[id] = made
      return made
    }
  }
}

/// How a change refers to its key: a graph's keys are kept for good
/// (``GraphKey/interned(for:storages:)``) and are held unowned, so that a
/// change retains and releases nothing for its key; a key made for one
/// change (a record built by hand) is owned.
struct GraphKeyReference {
  unowned(unsafe) let key: GraphKey
  /// The key when it is not interned, keeping it alive; `nil` otherwise.
  private let owner: GraphKey?

  /// One of a graph's keys, interned.
  init(interned key: GraphKey) {
    self.key = key
    owner = nil
  }

  /// The layout of a reference to an interned key, for a record built
  /// bit by bit (``BorrowingGraphHandler``).
  struct InternedBits {
    let key: UnsafeMutableRawPointer
    let owner = 0

    init(key: GraphKey) {
      self.key = Unmanaged.passUnretained(key).toOpaque()
    }
  }

  /// A key made for this reference, owned.
  init(owning key: GraphKey) {
    self.key = key
    owner = key
  }
}
