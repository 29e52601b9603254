/// A live, mutable view of a `Set` property that notifies observers of each
/// mutation as an insertion or a removal of the elements it really adds or
/// drops — what `mutableSetValueForKey:` gives in Objective-C.
///
/// Get one with ``KeyValueObservable/mutableSetValue(for:)``. Reads go to the
/// object's property each time; each mutating call changes the set where
/// the object stores it (over an observable stored property; through its
/// getter and setter otherwise) and is one notification, without indexes:
///
/// | call | notification |
/// |---|---|
/// | `insert(_:)`, `formUnion(_:)` | `.insertion`, new = the elements that were not there |
/// | `remove(_:)`, `subtract(_:)`, `formIntersection(_:)`, `removeAll()` | `.removal`, old = the elements that went |
/// | `replaceAll(with:)` | `.replacement`, old = the elements that went, new = those that came |
///
/// Like every assignment, a call that adds or drops nothing still notifies,
/// with an empty set. Assigning the property itself stays a `.setting`, as
/// does a call another change of the property folds into (made in a
/// `.prior` callback of the call, or by the property's own `didSet`).
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
  private let inPlace: InPlaceStorage<Object, Set<Element>>?

  init(object: Object, keyPath: ReferenceWritableKeyPath<Object, Set<Element>>) {
    self.object = object
    self.keyPath = keyPath
    self.inPlace = InPlaceStorage(keyPath, of: object)
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
    mutate(.union, using: [member]) { $0.insert(member) }
  }

  /// Adds the elements of `other`: one insertion of those that were not
  /// there.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).formUnion([1, 2, 3])
  /// ```
  public func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
    let added = Set(other)
    mutate(.union, using: added) { $0.formUnion(added) }
  }

  /// Removes `member`: a removal of `[member]`, or of nothing when it was
  /// not there. Returns the removed element.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).remove(7)
  /// ```
  @discardableResult
  public func remove(_ member: Element) -> Element? {
    mutate(.minus, using: [member]) { $0.remove(member) }
  }

  /// Removes the elements of `other`: one removal of those that were
  /// there.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).subtract([1, 2])
  /// ```
  public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
    let removed = Set(other)
    mutate(.minus, using: removed) { $0.subtract(removed) }
  }

  /// Keeps only the elements also in `other`: one removal of the others.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).formIntersection([2, 3])
  /// ```
  public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
    let kept = Set(other)
    mutate(.intersect, using: kept) { $0.formIntersection(kept) }
  }

  /// Removes every element: one removal of all of them.
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).removeAll()
  /// ```
  public func removeAll() {
    mutate(.intersect, using: []) { $0.removeAll() }
  }

  /// Makes the set `elements`: one replacement, old = the elements
  /// removed, new = the elements added (`setSet:` in Objective-C).
  ///
  /// ```swift
  /// team.mutableSetValue(for: \.memberIDs).replaceAll(with: [1, 2])
  /// // observers: .replacement, old = the ids that went, new = the ids that came
  /// ```
  public func replaceAll(with elements: Set<Element>) {
    mutate(.set, using: elements) { $0 = elements }
  }

  // MARK: Implementation

  /// One notification of `mutation` with `objects`, around `body`'s change
  /// of the property, written in place.
  private func mutate<Result>(
    _ mutation: KeyValueSetMutation,
    using objects: Set<Element>,
    _ body: (inout Set<Element>) -> Result
  ) -> Result {
    object.withChange(mutation, using: objects, for: keyPath) {
      guard let inPlace else { return body(&object[keyPath: keyPath]) }
      var result: Result?
      inPlace.modifyInOpenChange { result = body(&$0) }
      return result!
    }
  }
}
