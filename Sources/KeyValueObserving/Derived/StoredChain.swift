/// A key path that is a chain of observable stored properties —
/// `\.middle.inner.value` — read link by link through each property's
/// storage, as the macro's tables hand it out, instead of through the key
/// path. A key path read runs the standard library's generic projection,
/// which for three links costs more than a whole notification several times
/// over, and an observed chain reads its value twice per change.
///
/// Found once, when the observation starts (``init(_:of:)``), from the
/// reads that reading the key path makes: one observable stored property
/// per link, whose key paths, appended, equal the observed one. Each link
/// holds for objects of the class it was found on; an object of another
/// class on the way (a subclass, which may override the property) makes
/// ``read(from:matching:)`` give `nil`, and the caller reads the key path.
///
/// ```swift
/// // let chain = StoredChain(\Person.address.city, of: person)
/// // chain?.read(from: person, matching: nil)  // the city, or nil
/// ```
@usableFromInline
struct StoredChain<Value> {
  /// One link: a property of objects of one class.
  @usableFromInline
  struct Link {
    /// The class of the objects the link holds for.
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let slot: Int
    /// An object's observation storage, if it has one.
    @usableFromInline let storage: (AnyObject) -> Unmanaged<_KeyValueObservationStorage>?
  }

  /// Every link, the root's first.
  @usableFromInline let links: [Link]
  /// Reads each link but the last: the object the next link holds for.
  @usableFromInline let objects: [(AnyObject) -> AnyObject]
  /// Reads the last link: the value.
  @usableFromInline let value: (AnyObject) -> Value

  /// The chain `keyPath` is on `root`'s class, or `nil` when it is not
  /// one: a computed property on the way, a key with declared
  /// dependencies, an optional link, or a class the macro did not mark.
  init?<Root: KeyValueObservable>(_ keyPath: KeyPath<Root, Value>, of root: Root) {
    let (_, reads) = withAccessTracking { root[keyPath: keyPath] }
    guard reads.count >= 2, reads.allSatisfy({ $0.declaringObject == nil }) else { return nil }
    var linkKeyPaths: [AnyKeyPath] = []
    var links: [Link] = []
    var objects: [(AnyObject) -> AnyObject] = []
    var value: ((AnyObject) -> Value)? = nil
    for (index, read) in reads.enumerated() {
      let linkType = read.storage.objectType
      guard ObjectIdentifier(linkType._$kvoMarkedType) == ObjectIdentifier(linkType),
        let link = linkType._$kvoKeyPath(forSlot: read.slot)
      else { return nil }
      linkKeyPaths.append(link)
      let (handled, outcome) = _KeyValueStorageAccess.perform(.chainLink) {
        linkType._$kvoAccessStorage(ofSlot: read.slot, $0)
      }
      guard handled, let storage = outcome.linkStorage else { return nil }
      links.append(Link(type: ObjectIdentifier(linkType), slot: read.slot, storage: storage))
      if index < reads.count - 1 {
        guard let object = outcome.linkObject else { return nil }
        objects.append(object)
      } else {
        guard Self.appended(linkKeyPaths) == keyPath,
          let accessors = outcome.accessors as? StorageAccessors<AnyObject, Value>
        else { return nil }
        value = accessors.get
      }
    }
    guard let value else { return nil }
    self.links = links
    self.objects = objects
    self.value = value
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
  @inlinable
  func read(from root: AnyObject, matching expected: [Dependency]?) -> Value? {
    if let expected, expected.count != links.count { return nil }
    var object = root
    for index in links.indices {
      let link = links[index]
      guard ObjectIdentifier(type(of: object)) == link.type else { return nil }
      if let expected {
        guard expected[index].slot == link.slot, let storage = link.storage(object),
          storage.toOpaque() == Unmanaged.passUnretained(expected[index].storage).toOpaque()
        else { return nil }
      }
      if index < objects.count {
        object = objects[index](object)
      }
    }
    return value(object)
  }
}
