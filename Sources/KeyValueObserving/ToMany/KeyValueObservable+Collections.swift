extension KeyValueObservable {
  /// A live, mutable view of the array at `keyPath` whose mutations notify
  /// observers of the property as insertions, removals and replacements
  /// with indexes: see ``KeyValueMutableArray``.
  ///
  /// ```swift
  /// let token = person.observe(\.tags, options: [.new]) { _, change in
  ///     print(change.kind, change.indexes!.ranges, change.newValue!)
  /// }
  /// let tags = person.mutableArrayValue(for: \.tags)
  /// tags.append(contentsOf: ["a", "b"])  // prints "insertion [0..<2] ["a", "b"]"
  /// ```
  public func mutableArrayValue<Element>(
    for keyPath: ReferenceWritableKeyPath<Self, [Element]>
  ) -> KeyValueMutableArray<Self, Element> {
    KeyValueMutableArray(object: self, keyPath: keyPath)
  }

  /// A live, mutable view of the `Set` at `keyPath` whose mutations notify
  /// observers of the property as insertions and removals of the elements
  /// really added or dropped: see ``KeyValueMutableSet``.
  ///
  /// ```swift
  /// let ids = team.mutableSetValue(for: \.memberIDs)
  /// ids.formUnion([1, 2])  // observers: .insertion, new [1, 2]
  /// ```
  public func mutableSetValue<Element: Hashable>(
    for keyPath: ReferenceWritableKeyPath<Self, Set<Element>>
  ) -> KeyValueMutableSet<Self, Element> {
    KeyValueMutableSet(object: self, keyPath: keyPath)
  }

  /// Refuses, at compile time, a key path that is not a writable array
  /// property, naming what ``mutableArrayValue(for:)`` needs instead of a
  /// generic-inference error.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.age)  // error: needs a writable key path to an array property
  /// ```
  @available(
    *,
    unavailable,
    message: "mutableArrayValue(for:) needs a writable key path to an array property ([Element]); use mutableSetValue(for:) for a Set"
  )
  public func mutableArrayValue<Value>(for keyPath: KeyPath<Self, Value>) -> Never {
    fatalError("unavailable")
  }

  /// Refuses, at compile time, a key path that is not a writable `Set`
  /// property, naming what ``mutableSetValue(for:)`` needs.
  ///
  /// ```swift
  /// person.mutableSetValue(for: \.tags)  // error: needs a writable key path to a Set property
  /// ```
  @available(
    *,
    unavailable,
    message: "mutableSetValue(for:) needs a writable key path to a Set property (Set<Element>); use mutableArrayValue(for:) for an array"
  )
  public func mutableSetValue<Value>(for keyPath: KeyPath<Self, Value>) -> Never {
    fatalError("unavailable")
  }
}
