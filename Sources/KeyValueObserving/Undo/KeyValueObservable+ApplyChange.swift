extension KeyValueObservable {
  /// Makes the change a record describes, through the property's setter or
  /// its collection proxy, so that observers hear it as they heard the
  /// original.
  ///
  /// Together with ``KeyValueObservedChange/inverse`` it replays a change
  /// or undoes it: on another object (a replica), later (a log), or
  /// backwards (undo).
  ///
  /// | kind | an array property | a set property |
  /// |---|---|---|
  /// | `.setting` | assigns the new value | assigns the new value |
  /// | `.insertion` | inserts the new elements at the indexes | inserts the new elements |
  /// | `.removal` | removes the elements at the indexes | removes the old elements |
  /// | `.replacement` | puts the new elements at the indexes | removes the old elements, inserts the new |
  ///
  /// A to-many change notifies one change of its kind, as the proxy's call
  /// does (see ``KeyValueMutableArray`` and ``KeyValueMutableSet``).
  /// Indexes are the record's: a removal's and a replacement's name
  /// positions before the change, an insertion's positions after it.
  /// A record with no indexes or no elements to apply changes nothing and
  /// notifies nothing. One that lacks what it needs throws, and changes
  /// nothing either; `isPrior` is not read.
  ///
  /// ```swift
  /// var changes: [KeyValueObservedChange<[String]>] = []
  /// let token = person.observe(\.tags, options: [.old, .new]) { _, change in changes.append(change) }
  /// person.mutableArrayValue(for: \.tags).insert("new", at: 0)
  ///
  /// try person.apply(changes[0].inverse, to: \.tags)  // removes "new" at 0
  /// try replica.apply(changes[0], to: \.tags)         // inserts "new" at 0 there
  /// ```
  ///
  /// - Parameters:
  ///   - change: The change to make.
  ///   - keyPath: The property it changes.
  /// - Throws: A ``KeyValueCodingError``, having changed nothing:
  ///
  ///   | error | when |
  ///   |---|---|
  ///   | ``KeyValueCodingError/incompleteChange(key:type:kind:missing:)`` | the record lacks the value or the indexes it needs |
  ///   | ``KeyValueCodingError/indexesOutOfRange(key:type:indexes:count:)`` | its indexes lie outside the array |
  ///   | ``KeyValueCodingError/elementCountMismatch(key:type:indexes:elementCount:)`` | its indexes and elements differ in number |
  ///   | ``KeyValueCodingError/elementsChanged(key:type:indexes:)`` | the array no longer holds the elements it removes or replaces there |
  ///   | ``KeyValueCodingError/notACollection(key:type:kind:)`` | a to-many record names a property that is neither an array nor a set |
  public func apply<Value>(
    _ change: KeyValueObservedChange<Value>,
    to keyPath: ReferenceWritableKeyPath<Self, Value>
  ) throws(KeyValueCodingError) {
    guard change.kind != .setting else {
      guard let newValue = change.newValue else {
        throw .incompleteChange(key: Self.changeKeyName(keyPath), type: "\(Self.self)", kind: .setting, missing: .new)
      }
      self[keyPath: keyPath] = newValue
      return
    }
    guard let collection = Value.self as? any ToManyChangeTarget.Type else {
      throw .notACollection(key: Self.changeKeyName(keyPath), type: "\(Self.self)", kind: change.kind)
    }
    try collection.apply(change, to: keyPath, of: self)
  }

  /// The name of the property `keyPath` names, for an error.
  static func changeKeyName(_ keyPath: AnyKeyPath) -> String {
    _$kvoName(for: keyPath) ?? describe(keyPath)
  }
}

/// An array or a set: a property a to-many change record applies to,
/// through the collection's proxy.
protocol ToManyChangeTarget {
  /// Makes the to-many `change` of `object`'s property at `keyPath`, whose
  /// type, `Value`, is this type.
  static func apply<Root: KeyValueObservable, Value>(
    _ change: KeyValueObservedChange<Value>,
    to keyPath: ReferenceWritableKeyPath<Root, Value>,
    of object: Root
  ) throws(KeyValueCodingError)
}

extension Array: ToManyChangeTarget {
  static func apply<Root: KeyValueObservable, Value>(
    _ change: KeyValueObservedChange<Value>,
    to keyPath: ReferenceWritableKeyPath<Root, Value>,
    of object: Root
  ) throws(KeyValueCodingError) {
    // `Value` is `Self`: the caller found this conformance through it.
    let change = change as! KeyValueObservedChange<[Element]>
    let keyPath = keyPath as! ReferenceWritableKeyPath<Root, [Element]>
    let key = Root.changeKeyName(keyPath)
    let type = "\(Root.self)"
    guard let indexes = change.indexes else {
      throw .incompleteChange(key: key, type: type, kind: change.kind, missing: .indexes)
    }
    let elements: [Element]
    switch change.kind {
    case .insertion, .replacement:
      guard let new = change.newValue else { throw .incompleteChange(key: key, type: type, kind: change.kind, missing: .new) }
      elements = new
    case .removal, .setting:
      elements = change.oldValue ?? []
      guard change.oldValue == nil || elements.count == indexes.count else {
        throw .elementCountMismatch(key: key, type: type, indexes: indexes, elementCount: elements.count)
      }
    }
    guard change.kind == .removal || elements.count == indexes.count else {
      throw .elementCountMismatch(key: key, type: type, indexes: indexes, elementCount: elements.count)
    }
    let proxy = object.mutableArrayValue(for: keyPath)
    let count = proxy.endIndex
    // An insertion's indexes are positions after it.
    let bound = change.kind == .insertion ? count + elements.count : count
    guard (indexes.ranges.last?.upperBound ?? 0) <= bound else {
      throw .indexesOutOfRange(key: key, type: type, indexes: indexes, count: count)
    }
    guard !indexes.isEmpty else { return }
    let ranges = indexes.ranges
    if change.kind != .insertion, let old = change.oldValue {
      // The elements the record takes out must be the ones there: an
      // element that is told apart (`==`, or another object) refuses it.
      let array = object[keyPath: keyPath]
      let current = ranges.flatMap { array[$0] }
      if zip(current, old).contains(where: { compareValues($0, $1) == false }) {
        throw .elementsChanged(key: key, type: type, indexes: indexes)
      }
    }
    proxy.mutate(change.kind, at: IndexRanges(ranges)) { array in
      switch change.kind {
      case .insertion:
        // Ranges in ascending order: each lands where the record says once
        // the ones before it are in.
        var offset = 0
        for range in ranges {
          array.insert(contentsOf: elements[offset..<offset + range.count], at: range.lowerBound)
          offset += range.count
        }
      case .removal:
        for range in ranges.reversed() {
          array.removeSubrange(range)
        }
      case .replacement, .setting:
        var offset = 0
        for range in ranges {
          array.replaceSubrange(range, with: elements[offset..<offset + range.count])
          offset += range.count
        }
      }
    }
  }
}

extension Set: ToManyChangeTarget {
  static func apply<Root: KeyValueObservable, Value>(
    _ change: KeyValueObservedChange<Value>,
    to keyPath: ReferenceWritableKeyPath<Root, Value>,
    of object: Root
  ) throws(KeyValueCodingError) {
    // `Value` is `Self`: the caller found this conformance through it.
    let change = change as! KeyValueObservedChange<Set<Element>>
    let keyPath = keyPath as! ReferenceWritableKeyPath<Root, Set<Element>>
    func required(_ value: Set<Element>?, _ part: KeyValueChangeKey) throws(KeyValueCodingError) -> Set<Element> {
      guard let value else {
        throw .incompleteChange(key: Root.changeKeyName(keyPath), type: "\(Root.self)", kind: change.kind, missing: part)
      }
      return value
    }
    let proxy = object.mutableSetValue(for: keyPath)
    switch change.kind {
    case .insertion:
      let added = try required(change.newValue, .new)
      if !added.isEmpty { proxy.formUnion(added) }
    case .removal:
      let removed = try required(change.oldValue, .old)
      if !removed.isEmpty { proxy.subtract(removed) }
    case .replacement, .setting:
      let removed = try required(change.oldValue, .old)
      let added = try required(change.newValue, .new)
      if !removed.isEmpty || !added.isEmpty { proxy.replaceAll(with: proxy.set.subtracting(removed).union(added)) }
    }
  }
}
