/// A key path that is a chain of observable stored properties —
/// `\.middle.inner.value`, `\.address?.city?.name` — read link by link
/// through each property's storage, as the macro's tables hand it out,
/// instead of through the key path. A key path read runs the standard
/// library's generic projection, which for three links costs more than a
/// whole notification several times over, and an observed chain reads its
/// value twice per change.
///
/// Found once, when the observation starts (``init(_:of:)``), from the
/// reads that reading the key path makes (one read more than the
/// observation itself makes): one observable stored property per link,
/// which together are the observed key path (see
/// `isChain(_:of:optional:)`). A link may hold an object or an optional
/// one (`weak` too): a `nil` link ends the read with `nil`, as the key
/// path's `?.` does. Each link holds for objects of the class it was found
/// on; an object of another class on the way (a subclass, which may
/// override the property) makes ``read(from:matching:)`` give `nil`, and
/// the caller reads the key path.
@usableFromInline
final class StoredChain<Value> {
  /// One link: a property of objects of one class.
  struct Link {
    /// The class of the objects the link holds for.
    let type: ObjectIdentifier
    let slot: Int
    /// An object's observation storage, if it has one.
    let storage: (AnyObject) -> Unmanaged<_KeyValueObservationStorage>?
    /// The object the property holds, where the next link reads (`nil`
    /// for a `nil` optional), retained; `nil` on the last link. Kept here,
    /// not in an array of functions, which would hold them through a
    /// conversion to the most general form, run on every call.
    ///
    /// Retained, and released once the walk past it is done: another
    /// thread may replace the link meanwhile (a change of a key it does
    /// not observe), and the object the link held is then freed as soon
    /// as nothing holds it.
    let object: ((AnyObject) -> Unmanaged<AnyObject>?)?
    /// Reports a read of the link's key on an object to this thread's
    /// tracking scope, as the property's getter would.
    let record: (AnyObject) -> Void

    /// The object the link's property holds on `object`, retained, read
    /// under the lock of `object`'s storage: a write of the key holds what
    /// it replaced until it has taken that lock once after its store (see
    /// ``_KeyValueObservationStorage/letLinkReadersFinish()``), so the
    /// object read cannot be freed before it is retained.
    @inline(__always)
    func readObject(_ read: (AnyObject) -> Unmanaged<AnyObject>?, from object: AnyObject) -> Unmanaged<AnyObject>? {
      guard let storage = storage(object) else { return read(object) }
      return storage._withUnsafeGuaranteedRef { storage in
        _ = storage.lockState()
        defer { storage.unlockState() }
        return read(object)
      }
    }

    /// Whether the link holds for `object`, and, with `expected`, whether
    /// `object` and the link's key are its entry at `index`.
    @inline(__always)
    func holds(for object: AnyObject, _ expected: RegisteredDependencies?, at index: Int) -> Bool {
      guard ObjectIdentifier(Swift.type(of: object)) == type else { return false }
      guard let expected else { return true }
      return index < expected.count && expected[index].slot == slot
        && storage(object)?.toOpaque() == Unmanaged.passUnretained(expected[index].storage).toOpaque()
    }
  }

  /// Where a walk of the links stopped.
  @usableFromInline
  enum WalkEnd {
    /// At the last link's object, whose property holds the value:
    /// retained, for the caller to release.
    case reachedLast(Unmanaged<AnyObject>)
    /// At a `nil` link, where the dependencies end too: the value is `nil`.
    case endedAtNil
    /// At an object that is not of its link's class, or not the one the
    /// dependencies list.
    case mismatched
  }

  /// Walks from the link at `index` on, from `object`: not generic, so
  /// that a walk asks the run time for no type. With `reads`, it appends
  /// each link it reads there, for a tracking scope (see
  /// ``readRecording(from:)``).
  @usableFromInline typealias Walker = (
    _ object: AnyObject, _ expected: RegisteredDependencies?, _ index: Int, _ reads: UnsafeMutablePointer<[LinkRead]>?
  ) -> WalkEnd

  /// A key a walk read: the link's report of it, and the object.
  @usableFromInline typealias LinkRead = (record: (AnyObject) -> Void, object: AnyObject)

  /// Walks from the first link: one closure calling the next link's, made
  /// once, so that a walk indexes no array and copies no link.
  @usableFromInline let walk: Walker
  /// Reads the last link's property, as the key path gives it.
  @usableFromInline let value: (AnyObject) -> Value
  /// Whether the last link's property holds an object, which a walk then
  /// reads under the lock of its storage, as it reads the other links.
  let lastHoldsObject: Bool
  /// The last link's storage, where a walk reads its value.
  let lastStorage: (AnyObject) -> Unmanaged<_KeyValueObservationStorage>?
  /// The value's `nil`, which a `nil` link gives (the value is optional
  /// past an optional link).
  @usableFromInline let none: Value?
  /// The class and the key of the last link.
  @usableFromInline let lastType: ObjectIdentifier
  @usableFromInline let lastSlot: Int

  /// The chain `keyPath` is on `root`'s class, or `nil` when it is not
  /// one: a computed property on the way, a key with declared
  /// dependencies, a class the macro did not mark, or a link that is `nil`
  /// now (the read stops there, and what lies beyond is not known).
  init?<Root: KeyValueObservable>(_ keyPath: KeyPath<Root, Value>, of root: Root) {
    let (_, reads) = withAccessTracking { root[keyPath: keyPath] }
    guard reads.count >= 2, reads.allSatisfy({ $0.declaringObject == nil }) else { return nil }
    var linkKeyPaths: [AnyKeyPath] = []
    var links: [Link] = []
    var value: ((AnyObject) -> Value)? = nil
    var pastOptionalLink = false
    for (index, read) in reads.enumerated() {
      let linkType = read.storage.objectType
      let isLast = index == reads.count - 1
      // Past an optional link, each property's key path is the one rooted
      // at an optional of its class (`\B?.?.c`): appended, they make the
      // `?.` chain. A non-optional link there (`\a?.b.c`) makes none.
      guard ObjectIdentifier(linkType._$kvoMarkedType) == ObjectIdentifier(linkType),
        let link = pastOptionalLink
          ? linkType.optionallyRootedKeyPath(forSlot: read.slot) : linkType._$kvoKeyPath(forSlot: read.slot)
      else { return nil }
      linkKeyPaths.append(link)
      let (handled, outcome) = _KeyValueStorageAccess.perform(.chainLink, on: linkType._$kvoKeys, slot: read.slot)
      guard handled, let storage = outcome.linkStorage, let accessors = outcome.accessors as? any ChainValueReading
      else { return nil }
      links.append(
        Link(
          type: ObjectIdentifier(linkType), slot: read.slot, storage: storage, object: outcome.linkObject,
          record: accessRecorder(linkType, slot: read.slot)
        )
      )
      if !isLast {
        guard outcome.linkObject != nil, !pastOptionalLink || accessors.holdsOptional else { return nil }
        pastOptionalLink = pastOptionalLink || accessors.holdsOptional
      } else {
        // Through an optional link, the key path gives the last property's
        // value wrapped in an optional, unless it is one already.
        value = accessors.getter(giving: Value.self)
      }
    }
    guard let value, let last = links.last, isChain(keyPath, of: linkKeyPaths, optional: pastOptionalLink)
    else { return nil }
    var walk: Walker = { object, expected, index, reads in
      guard last.holds(for: object, expected, at: index), dependencies(expected, endAt: index) else {
        return .mismatched
      }
      reads?.pointee.append((last.record, object))
      return .reachedLast(Unmanaged.passRetained(object))
    }
    for link in links.dropLast().reversed() {
      guard let linkObject = link.object else { return nil }
      let next = walk
      walk = { object, expected, index, reads in
        guard link.holds(for: object, expected, at: index) else { return .mismatched }
        reads?.pointee.append((link.record, object))
        guard let held = link.readObject(linkObject, from: object) else {
          return dependencies(expected, endAt: index) ? .endedAtNil : .mismatched
        }
        // Where another thread may replace the link and free what it held:
        // the walk holds it until the rest of the walk is done.
        SchedulePoint.reach(.sharedRead)
        let end = held._withUnsafeGuaranteedRef { next($0, expected, index + 1, reads) }
        held.release()
        return end
      }
    }
    self.walk = walk
    self.value = value
    self.lastHoldsObject = last.object != nil
    self.lastStorage = last.storage
    self.lastType = last.type
    self.lastSlot = last.slot
    self.none = (Value.self as? any OptionalValue.Type)?.nilValue as? Value
  }


  /// Whether `slot` of `object` is the last link's key and object class, so
  /// that ``value`` reads it.
  @inlinable @inline(__always)
  func isLastLink(_ slot: Int, of object: AnyObject) -> Bool {
    slot == lastSlot && ObjectIdentifier(type(of: object)) == lastType
  }

  /// The value read from `root`, link by link, and whether the read
  /// reached the last link (rather than a `nil` one); `nil` when an object
  /// on the way is not of its link's class, or, with `expected` (the
  /// dependencies of the last read), when an object or key on the way is
  /// not the one it lists: then the dependencies may have changed, and the
  /// caller reads the key path with tracking.
  @usableFromInline
  func read(from root: AnyObject, matching expected: RegisteredDependencies?) -> (value: Value, reachedLast: Bool)? {
    finish(walk(root, expected, 0, nil))
  }

  /// The value read from `root`, link by link, as ``read(from:matching:)``
  /// reads it without `expected`, each key read reported to this thread's
  /// tracking scope as the key path's read would report it: how a chain
  /// whose objects changed finds its dependencies, with no read of a link
  /// outside its storage's lock. `nil` when an object on the way is not of
  /// its link's class: nothing is reported then, and the caller reads the
  /// key path.
  func readRecording(from root: AnyObject) -> Value? {
    var reads: [LinkRead] = []
    guard let read = withUnsafeMutablePointer(to: &reads, { finish(walk(root, nil, 0, $0)) }) else { return nil }
    for (record, object) in reads { record(object) }
    return read.value
  }

  /// The value where a walk ended.
  @inline(__always)
  private func finish(_ end: WalkEnd) -> (value: Value, reachedLast: Bool)? {
    switch end {
    case .reachedLast(let object):
      defer { object.release() }
      return (object._withUnsafeGuaranteedRef { lastValue(of: $0) }, true)
    case .endedAtNil: return none.map { ($0, false) }
    case .mismatched: return nil
    }
  }

  /// The last link's value on `object`: read under the lock of its storage
  /// when it holds an object, as a link's is.
  @inline(__always)
  private func lastValue(of object: AnyObject) -> Value {
    guard lastHoldsObject, let storage = lastStorage(object) else { return value(object) }
    return storage._withUnsafeGuaranteedRef { storage in
      _ = storage.lockState()
      defer { storage.unlockState() }
      return value(object)
    }
  }
}

/// Reports a read of `slot` on objects of `type` to this thread's tracking
/// scope, as the property's getter does.
private func accessRecorder(_ type: any KeyValueObservable.Type, slot: Int) -> (AnyObject) -> Void {
  func recorder<Object: KeyValueObservable>(_: Object.Type) -> (AnyObject) -> Void {
    { _KeyValueAccessTracking.record(unsafeDowncast($0, to: Object.self), slot: slot) }
  }
  return recorder(type)
}

/// What a chain asks of a property's storage (``_KeyValueTypedStorage``),
/// whose value type it does not know.
protocol ChainValueReading: AnyObject {
  /// Whether the property's value is optional.
  var holdsOptional: Bool { get }
  /// Reads the property as a chain's last link gives it, a `Result`: the
  /// value itself, or wrapped in an optional, as a key path through an
  /// optional link gives it; `nil` when it is neither.
  func getter<Result>(giving _: Result.Type) -> ((AnyObject) -> Result)?
}

extension _KeyValueTypedStorage: ChainValueReading {
  var holdsOptional: Bool { Value.self is any OptionalValue.Type }

  func getter<Result>(giving _: Result.Type) -> ((AnyObject) -> Result)? {
    // Reinterpreted, not cast: a function cast (`as?`) wraps the function
    // in a thunk or two, run on every read. The types are checked equal
    // first, and a struct's field holds a function of either in one form.
    if Result.self == Value.self {
      return unsafeBitCast(Getter(read: get), to: Getter<Result>.self).read
    }
    guard Result.self == Value?.self else { return nil }
    let get = self.get
    return unsafeBitCast(Getter<Value?>(read: { get($0) }), to: Getter<Result>.self).read
  }
}

/// A read of an object's property, as a struct's field holds it.
private struct Getter<Result> {
  let read: (AnyObject) -> Result
}

/// Whether `keyPath` is the chain of the properties `links` name, one
/// link each, in order: the links' key paths appended.
///
/// Without an optional link they equal it. Through one (whose later links
/// are rooted at optionals, `\A.b` + `\B?.?.c`), the appended path has
/// the literal `\A.b?.c`'s steps, but marks where its prefix of class
/// references ends elsewhere, which `==` compares; its hash, made of the
/// steps and their types alone, is compared instead — a computed property
/// on the way, which reads the same stored properties, is a step of its
/// own and hashes otherwise.
func isChain(_ keyPath: AnyKeyPath, of links: [AnyKeyPath], optional: Bool) -> Bool {
  guard let path = appended(links), type(of: path) == type(of: keyPath) else { return false }
  return optional ? path.hashValue == keyPath.hashValue : path == keyPath
}

/// The key paths appended into one, from the right (`a.appending(path:
/// b.appending(path: c))`): a path made so marks where its prefix of
/// class references ends as the literal `\A.b.c.d` does, which `==`
/// compares; appended from the left, it would not equal the literal.
private func appended(_ keyPaths: [AnyKeyPath]) -> AnyKeyPath? {
  var keyPaths = keyPaths
  guard var result = keyPaths.popLast() else { return nil }
  while let previous = keyPaths.popLast() {
    guard let path = previous.appending(path: result) else { return nil }
    result = path
  }
  return result
}

/// Whether `expected` (when there is one) ends with the link at `index`:
/// the read that listed it stopped there too.
private func dependencies(_ expected: RegisteredDependencies?, endAt index: Int) -> Bool {
  guard let expected else { return true }
  return expected.count == index + 1
}
