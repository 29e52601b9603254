/// A key path that is a chain of observable stored properties —
/// `\.middle.inner.value` — read link by link through each property's
/// storage, as the macro's tables hand it out, instead of through the key
/// path. A key path read runs the standard library's generic projection,
/// which for three links costs more than a whole notification several times
/// over, and an observed chain reads its value twice per change.
///
/// Found once, when the observation starts (``init(_:of:)``), from the
/// reads that reading the key path makes (one read more than the
/// observation itself makes): one observable stored property per link,
/// whose key paths, appended, equal the observed one. Each link
/// holds for objects of the class it was found on; an object of another
/// class on the way (a subclass, which may override the property) makes
/// ``read(from:matching:)`` give `nil`, and the caller reads the key path.
@usableFromInline
final class StoredChain<Value> {
  /// One link: a property of objects of one class.
  struct Link {
    /// The class of the objects the link holds for.
    let type: ObjectIdentifier
    let slot: Int
    /// An object's observation storage, if it has one.
    let storage: (AnyObject) -> Unmanaged<_KeyValueObservationStorage>?
    /// The object the property holds, where the next link reads; `nil` on
    /// the last link. Kept here, not in an array of functions, which would
    /// hold them through a conversion to the most general form, run on
    /// every call.
    ///
    /// Not retained: the object that holds it is alive (the root, retained
    /// by the caller, or the previous link's object, held by its own
    /// holder), and a read runs no code that could replace it — only the
    /// properties' storage is read. Another thread replacing a link while
    /// a change on this thread reads the chain races on the holder's
    /// storage, retained or not.
    let object: ((AnyObject) -> Unmanaged<AnyObject>)?

    /// Whether the link holds for `object`, and, with `expected`, whether
    /// `object` and the link's key are its entry at `index`.
    @inline(__always)
    func holds(for object: AnyObject, _ expected: [Dependency]?, at index: Int) -> Bool {
      guard ObjectIdentifier(Swift.type(of: object)) == type else { return false }
      guard let expected else { return true }
      return expected[index].slot == slot
        && storage(object)?.toOpaque() == Unmanaged.passUnretained(expected[index].storage).toOpaque()
    }
  }

  /// Reads from the link at `index` on, from `object`.
  typealias Reader = (_ object: AnyObject, _ expected: [Dependency]?, _ index: Int) -> Value?

  /// Reads from the first link: one closure calling the next link's, made
  /// once, so that a read indexes no array and copies no link.
  private let reader: Reader
  /// How many links.
  private let count: Int

  /// The chain `keyPath` is on `root`'s class, or `nil` when it is not
  /// one: a computed property on the way, a key with declared
  /// dependencies, an optional link, or a class the macro did not mark.
  init?<Root: KeyValueObservable>(_ keyPath: KeyPath<Root, Value>, of root: Root) {
    let (_, reads) = withAccessTracking { root[keyPath: keyPath] }
    guard reads.count >= 2, reads.allSatisfy({ $0.declaringObject == nil }) else { return nil }
    var linkKeyPaths: [AnyKeyPath] = []
    var links: [Link] = []
    var value: ((AnyObject) -> Value)? = nil
    for (index, read) in reads.enumerated() {
      let linkType = read.storage.objectType
      guard ObjectIdentifier(linkType._$kvoMarkedType) == ObjectIdentifier(linkType),
        let link = linkType._$kvoKeyPath(forSlot: read.slot)
      else { return nil }
      linkKeyPaths.append(link)
      let (handled, outcome) = _KeyValueStorageAccess.perform(.chainLink, on: linkType._$kvoKeys, slot: read.slot)
      guard handled, let storage = outcome.linkStorage else { return nil }
      links.append(Link(type: ObjectIdentifier(linkType), slot: read.slot, storage: storage, object: outcome.linkObject))
      if index < reads.count - 1 {
        guard outcome.linkObject != nil else { return nil }
      } else {
        guard Self.appended(linkKeyPaths) == keyPath,
          let storage = outcome.accessors as? _KeyValueTypedStorage<Value>
        else { return nil }
        value = storage.get
      }
    }
    guard let value, let last = links.last else { return nil }
    var reader: Reader = { object, expected, index in
      last.holds(for: object, expected, at: index) ? value(object) : nil
    }
    for link in links.dropLast().reversed() {
      guard let linkObject = link.object else { return nil }
      let next = reader
      reader = { object, expected, index in
        guard link.holds(for: object, expected, at: index) else { return nil }
        return linkObject(object)._withUnsafeGuaranteedRef { next($0, expected, index + 1) }
      }
    }
    self.reader = reader
    self.count = links.count
  }

  /// The key paths appended into one, from the right (`a.appending(path:
  /// b.appending(path: c))`): a path made so marks where its prefix of
  /// class references ends as the literal `\A.b.c.d` does, which `==`
  /// compares; appended from the left, it would not equal the literal.
  private static func appended(_ keyPaths: [AnyKeyPath]) -> AnyKeyPath? {
    var keyPaths = keyPaths
    guard var result = keyPaths.popLast() else { return nil }
    while let previous = keyPaths.popLast() {
      guard let path = previous.appending(path: result) else { return nil }
      result = path
    }
    return result
  }

  /// The value read from `root`, link by link; `nil` when an object on
  /// the way is not of its link's class, or, with `expected` (the
  /// dependencies of the last read), when an object or key on the way is
  /// not the one it lists: then the dependencies may have changed, and the
  /// caller reads the key path with tracking.
  @usableFromInline
  func read(from root: AnyObject, matching expected: [Dependency]?) -> Value? {
    if let expected, expected.count != count { return nil }
    return reader(root, expected, 0)
  }

}
