/// A live, mutable view of a `Set` property that notifies observers of each
/// mutation as an insertion or a removal of the elements it really adds or
/// drops — what `mutableSetValueForKey:` gives in Objective-C.
///
/// Get one with ``KeyValueObservable/mutableSetValue(for:)``. Reads go to the
/// object's property each time; each mutating call writes through the
/// property's setter once and is one notification, without indexes:
///
/// | call | notification |
/// |---|---|
/// | `insert(_:)`, `formUnion(_:)` | `.insertion`, new = the elements that were not there |
/// | `remove(_:)`, `subtract(_:)`, `formIntersection(_:)`, `removeAll()` | `.removal`, old = the elements that went |
///
/// Like every assignment, a call that adds or drops nothing still notifies,
/// with an empty set. Assigning the property itself stays a `.setting`.
///
/// ```swift
/// let ids = team.mutableSetValue(for: \.memberIDs)
/// ids.insert(7)               // .insertion, new [7]
/// ids.formUnion([7, 8, 9])    // .insertion, new [8, 9]
/// ids.formIntersection([8])   // .removal, old [7, 9]
/// ```
public final class KeyValueMutableSet<Object: KeyValueObservable, Element: Hashable>: Sequence {
  private let object: Object
  private let keyPath: ReferenceWritableKeyPath<Object, Set<Element>>

  init(object: Object, keyPath: ReferenceWritableKeyPath<Object, Set<Element>>) {
    self.object = object
    self.keyPath = keyPath
  }

  /// The set as it is now.
  ///
  /// ```swift
  /// let snapshot: Set<Int> = team.mutableSetValue(for: \.memberIDs).set
  /// ```
  public var set: Set<Element> { object[keyPath: keyPath] }

  /// How many elements the set holds now.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).count
  /// ```
  public var count: Int { self.set.count }

  /// Whether the set is empty now.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).isEmpty
  /// ```
  public var isEmpty: Bool { self.set.isEmpty }

  /// Whether the set holds `member` now.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).contains(7)
  /// ```
  public func contains(_ member: Element) -> Bool { self.set.contains(member) }

  /// Iterates over the elements the set holds now.
  ///
  /// ```swift
  /// for id in team.mutableSetValue(for: \.memberIDs) { print(id) }
  /// ```
  public func makeIterator() -> Set<Element>.Iterator { self.set.makeIterator() }

  /// Inserts `member`: an insertion of `[member]`, or of nothing when it
  /// was there. Returns what `Set.insert` returns.
  ///
  /// ```swift
  /// let (inserted, _) = team.mutableSetValue(for: \.memberIDs).insert(7)
  /// ```
  @discardableResult
  public func insert(_ member: Element) -> (inserted: Bool, memberAfterInsert: Element) {
    var result: (inserted: Bool, memberAfterInsert: Element)?
    formUnion(CollectionOfOne(member)) { result = $0.insert(member) }
    return result!
  }

  /// Adds the elements of `other`: one insertion of those that were not
  /// there.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).formUnion([1, 2, 3])
  /// ```
  public func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
    let added = Set(other)
    formUnion(added) { $0.formUnion(added) }
  }

  /// Removes `member`: a removal of `[member]`, or of nothing when it was
  /// not there. Returns the removed element.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).remove(7)
  /// ```
  @discardableResult
  public func remove(_ member: Element) -> Element? {
    var removed: Element?
    drop(self.set.intersection(CollectionOfOne(member))) { removed = $0.remove(member) }
    return removed
  }

  /// Removes the elements of `other`: one removal of those that were
  /// there.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).subtract([1, 2])
  /// ```
  public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
    let removed = Set(other)
    drop(self.set.intersection(removed)) { $0.subtract(removed) }
  }

  /// Keeps only the elements also in `other`: one removal of the others.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).formIntersection([2, 3])
  /// ```
  public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
    let kept = Set(other)
    drop(self.set.subtracting(kept)) { $0.formIntersection(kept) }
  }

  /// Removes every element: one removal of all of them.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).removeAll()
  /// ```
  public func removeAll() {
    drop(self.set) { $0.removeAll() }
  }

  // MARK: Implementation

  /// One insertion of the elements of `candidates` not in the set now.
  private func formUnion(_ candidates: some Sequence<Element>, _ body: (inout Set<Element>) -> Void) {
    let current = self.set
    let added = Set(candidates.lazy.filter { !current.contains($0) })
    object.willChangeSet(.insertion, dropped: [], for: keyPath)
    body(&object[keyPath: keyPath])
    object.didChangeSet(added: added, for: keyPath)
  }

  /// One removal of `dropped`.
  private func drop(_ dropped: Set<Element>, _ body: (inout Set<Element>) -> Void) {
    object.willChangeSet(.removal, dropped: dropped, for: keyPath)
    body(&object[keyPath: keyPath])
    object.didChangeSet(added: [], for: keyPath)
  }
}
