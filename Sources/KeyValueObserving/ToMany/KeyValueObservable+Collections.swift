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

  /// Refuses, at compile time, an array property that cannot be set where
  /// the call is — `private(set)`, a `let`, a computed property without a
  /// setter — naming why, instead of a failed conversion to a writable key
  /// path. It returns the proxy's type, so that a call on its result
  /// (`.append(_:)`) is refused with this message too.
  ///
  /// Objective-C's key-value coding ignores access control: its
  /// `mutableArrayValueForKey:` reaches a read-only property's storage.
  /// Swift's key paths keep it: make the mutation where the setter is
  /// visible — a method of the class that calls `mutableArrayValue(for:)`
  /// — or widen the setter.
  ///
  /// ```swift
  /// // In the class: private(set) var images: [Image] = []
  /// tag.mutableArrayValue(for: \.images)  // error: images cannot be set here
  /// ```
  @available(
    *,
    unavailable,
    message: "mutableArrayValue(for:) needs a writable key path, and this array property cannot be set here (private(set), a let, or a computed property without a setter); Objective-C's key-value coding ignored access control, Swift's does not: call it in a method of the class, where the setter is visible, or widen the setter"
  )
  public func mutableArrayValue<Element>(for keyPath: KeyPath<Self, [Element]>) -> KeyValueMutableArray<Self, Element> {
    fatalError("unavailable")
  }

  /// Refuses, at compile time, a `Set` property that cannot be set where
  /// the call is, as the array form does.
  ///
  /// ```swift
  /// // In the class: private(set) var ids: Set<Int> = []
  /// team.mutableSetValue(for: \.ids)  // error: ids cannot be set here
  /// ```
  @available(
    *,
    unavailable,
    message: "mutableSetValue(for:) needs a writable key path, and this Set property cannot be set here (private(set), a let, or a computed property without a setter); Objective-C's key-value coding ignored access control, Swift's does not: call it in a method of the class, where the setter is visible, or widen the setter"
  )
  public func mutableSetValue<Element: Hashable>(for keyPath: KeyPath<Self, Set<Element>>) -> KeyValueMutableSet<Self, Element> {
    fatalError("unavailable")
  }

  /// Refuses, at compile time, an optional array property, naming what to
  /// write instead: a proxy inserts into an array, and `nil` is none.
  ///
  /// ```swift
  /// // In the class: var images: [Image]? = nil
  /// tag.mutableArrayValue(for: \.images)  // error: needs a non-optional array property
  /// ```
  @available(
    *,
    unavailable,
    message: "mutableArrayValue(for:) needs a non-optional array property: a proxy inserts into an array, and nil is none; declare it '= []' (Objective-C's key-value coding treated a nil array as empty)"
  )
  public func mutableArrayValue<Element>(for keyPath: KeyPath<Self, [Element]?>) -> KeyValueMutableArray<Self, Element> {
    fatalError("unavailable")
  }

  /// Refuses, at compile time, an optional `Set` property, as the array
  /// form does.
  ///
  /// ```swift
  /// // In the class: var ids: Set<Int>? = nil
  /// team.mutableSetValue(for: \.ids)  // error: needs a non-optional Set property
  /// ```
  @available(
    *,
    unavailable,
    message: "mutableSetValue(for:) needs a non-optional Set property: a proxy inserts into a set, and nil is none; declare it '= []' (Objective-C's key-value coding treated a nil set as empty)"
  )
  public func mutableSetValue<Element: Hashable>(for keyPath: KeyPath<Self, Set<Element>?>) -> KeyValueMutableSet<Self, Element> {
    fatalError("unavailable")
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
  public func mutableArrayValue<Value>(for keyPath: KeyPath<Self, Value>) -> KeyValueMutableArray<Self, Value> {
    // The proxy's type, not `Never`, so that a call on the result is
    // refused with this message rather than a failed conversion.
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
