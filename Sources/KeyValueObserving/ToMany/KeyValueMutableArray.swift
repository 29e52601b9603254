/// A live, mutable view of an array property that notifies observers of
/// each mutation as an insertion, removal or replacement with indexes —
/// what `mutableArrayValueForKey:` gives in Objective-C.
///
/// Get one with ``KeyValueObservable/mutableArrayValue(for:)``. Reads go to
/// the object's property each time; each mutating call writes through the
/// property's setter once and is one notification whose old and new values
/// hold only the elements it touched:
///
/// | call | notification |
/// |---|---|
/// | `append(_:)`, `append(contentsOf:)`, `insert(_:at:)`, `insert(contentsOf:at:)` | `.insertion` at the new positions |
/// | `remove(at:)`, `removeFirst`, `removeLast`, `removeSubrange(_:)`, `removeAll()`, `removeAll(where:)` | `.removal` at the old positions |
/// | `proxy[i] = x`, `proxy[range] = …` (same length), `swapAt(_:_:)`, `replaceSubrange(_:with:)` with as many elements | `.replacement` |
/// | `replaceSubrange(_:with:)` with a different number of elements | a `.removal`, then an `.insertion` |
/// | `sort()`, `sort(by:)`, `reverse()`, `shuffle()`, `move(fromOffsets:toOffset:)` | one `.replacement` at the positions whose element changed (nothing when none did) |
///
/// Assigning the property itself (`person.tags = […]`) stays a `.setting`.
/// So does a call another change of the property folds into — one made in
/// a `.prior` callback of the call, or by the property's own `didSet`
/// during it —: its notification is a `.setting` of the whole array, which
/// its kind and indexes would no longer describe.
///
/// Cost: a proxy over an observable stored property changes the array
/// where the object stores it, observed or not, in one change of its key:
/// an `append` is amortised O(1) at any size, and a notification carries
/// only the elements it touched. Over any other key (a computed array property, or a property
/// of a subclass the macro did not mark) it reads the array, changes it and
/// assigns it back, which copies it once per call.
///
/// The proxy is a class: copies share the object. A position or range
/// outside the array stops the program, as it does for `Array`, in every
/// build — reading, inserting, replacing, swapping or removing — with a
/// message that names the class, the key, the position and the count: a
/// mutation is never dropped in silence. A proxy made with `init()` — as
/// generic algorithms do — holds an array of its own and notifies nobody.
///
/// ```swift
/// let tags = person.mutableArrayValue(for: \.tags)
/// tags.append("swift")                    // .insertion at [0], new ["swift"]
/// tags.append(contentsOf: ["kvo", "linux"])  // .insertion at [1, 2]
/// tags[0] = "Swift"                       // .replacement at [0]
/// tags.removeAll { $0.count < 4 }         // .removal at [1], old ["kvo"]
/// ```
public final class KeyValueMutableArray<Object: KeyValueObservable, Element>: RandomAccessCollection,
  MutableCollection, RangeReplaceableCollection
{
  /// Positions are the array's own: `0..<count`.
  ///
  /// ```swift
  /// let first: KeyValueMutableArray<Person, String>.Index = 0
  /// ```
  public typealias Index = Int

  /// The valid positions, `0..<count`.
  ///
  /// ```swift
  /// for position in tags.indices { print(tags[position]) }
  /// ```
  public typealias Indices = Range<Int>

  /// A range of the proxy: reads go to the object, as the proxy's do.
  ///
  /// ```swift
  /// let firstTwo = Array(tags[0..<2])
  /// ```
  public typealias SubSequence = Slice<KeyValueMutableArray<Object, Element>>

  @usableFromInline
  enum Backing {
    case inPlace(InPlaceStorage<Object, [Element]>, ReferenceWritableKeyPath<Object, [Element]>)
    case property(Object, ReferenceWritableKeyPath<Object, [Element]>)
    case detached(DetachedElements<Element>)
  }

  /// What the proxy reads and writes. Over an observable stored property,
  /// its storage, which holds the object: one reference for a call to
  /// take.
  @usableFromInline let backing: Backing

  init(object: Object, keyPath: ReferenceWritableKeyPath<Object, [Element]>) {
    if let storage = InPlaceStorage<Object, [Element]>(keyPath, of: object) {
      backing = .inPlace(storage, keyPath)
    } else {
      backing = .property(object, keyPath)
    }
  }

  /// A proxy over an array of its own, which notifies nobody: what generic
  /// code that makes a new collection gets.
  ///
  /// ```swift
  /// let scratch = KeyValueMutableArray<Person, String>()
  /// scratch.append("a")
  /// ```
  public required init() {
    backing = .detached(DetachedElements())
  }

  /// The array as it is now.
  ///
  /// ```swift
  /// let snapshot: [String] = person.mutableArrayValue(for: \.tags).array
  /// ```
  @inlinable
  public var array: [Element] {
    switch backing {
    case .inPlace(let storage, _): storage.value
    case .property(let object, let keyPath): object[keyPath: keyPath]
    case .detached(let detached): detached.elements
    }
  }

  /// Always 0.
  ///
  /// ```swift
  /// tags[tags.startIndex]  // the first tag
  /// ```
  @inlinable
  public var startIndex: Int { 0 }

  /// The number of elements the property holds now.
  ///
  /// ```swift
  /// tags.insert("last", at: tags.endIndex)
  /// ```
  @inlinable
  public var endIndex: Int { array.count }

  /// `0..<count`, as the property holds now.
  ///
  /// ```swift
  /// for position in tags.indices { print(tags[position]) }
  /// ```
  @inlinable
  public var indices: Range<Int> { 0..<endIndex }

  /// The element at `position`; setting it is one replacement there.
  /// `position` must be in the array.
  ///
  /// ```swift
  /// tags[0] = tags[0].uppercased()  // .replacement at [0]
  /// ```
  @inlinable
  public subscript(position: Int) -> Element {
    get {
      let array = array
      requirePosition(position, in: array.indices, count: array.count)
      return array[position]
    }
    set {
      let count = endIndex
      requirePosition(position, in: 0..<count, count: count)
      mutate(.replacement, at: IndexRanges(position..<position + 1)) { $0[position] = newValue }
    }
  }

  /// The elements in `bounds`; setting them is ``replaceSubrange(_:with:)``.
  ///
  /// ```swift
  /// let firstTwo = Array(tags[0..<2])
  /// ```
  public subscript(bounds: Range<Int>) -> Slice<KeyValueMutableArray<Object, Element>> {
    get { Slice(base: self, bounds: bounds) }
    set { replaceSubrange(bounds, with: Array(newValue)) }
  }

  /// Exchanges the elements at `i` and `j`: one replacement at both
  /// positions (nothing when they are equal).
  ///
  /// ```swift
  /// tags.swapAt(0, 2)  // .replacement at [0, 2]
  /// ```
  @inlinable
  public func swapAt(_ i: Int, _ j: Int) {
    let count = endIndex
    requirePosition(i, in: 0..<count, count: count)
    requirePosition(j, in: 0..<count, count: count)
    guard i != j else { return }
    let (low, high) = i < j ? (i, j) : (j, i)
    mutate(.replacement, at: IndexRanges([low..<low + 1, high..<high + 1])) { $0.swapAt(i, j) }
  }

  // MARK: Insertion

  /// Appends `element`: one insertion at the new last position.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).append("swift")
  /// ```
  @inlinable
  public func append(_ element: Element) {
    let count = endIndex
    mutate(.insertion, at: IndexRanges(count..<count + 1)) { $0.append(element) }
  }

  /// Appends `elements`: one insertion over all the new positions.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).append(contentsOf: ["a", "b"])
  /// ```
  @inlinable
  public func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
    insert(contentsOf: Array(elements), at: endIndex)
  }

  /// Inserts `element` at `position`: one insertion there.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).insert("first", at: 0)
  /// ```
  @inlinable
  public func insert(_ element: Element, at position: Int) {
    insert(contentsOf: CollectionOfOne(element), at: position)
  }

  /// Inserts `elements` at `position`: one insertion over their new
  /// positions. `position` must be in `0...count`.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).insert(contentsOf: ["a", "b"], at: 1)
  /// ```
  @inlinable
  public func insert<C: Collection>(contentsOf elements: C, at position: Int) where C.Element == Element {
    let count = endIndex
    requirePosition(position, in: 0..<count + 1, count: count)
    let inserted = Array(elements)
    mutate(.insertion, at: IndexRanges(position..<position + inserted.count)) {
      $0.insert(contentsOf: inserted, at: position)
    }
  }

  // MARK: Removal

  /// Removes and returns the element at `position`: one removal there.
  ///
  /// ```swift
  /// let first = person.mutableArrayValue(for: \.tags).remove(at: 0)
  /// ```
  @inlinable @discardableResult
  public func remove(at position: Int) -> Element {
    let count = endIndex
    requirePosition(position, in: 0..<count, count: count)
    var removed: Element?
    mutate(.removal, at: IndexRanges(position..<position + 1)) { removed = $0.remove(at: position) }
    return removed!
  }

  /// Removes the elements in `bounds`: one removal over them.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).removeSubrange(1..<3)
  /// ```
  public func removeSubrange(_ bounds: Range<Int>) {
    replaceSubrange(bounds, with: EmptyCollection())
  }

  /// Removes every element: one removal over all of them.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).removeAll()
  /// ```
  @inlinable
  public func removeAll(keepingCapacity keepCapacity: Bool = false) {
    let count = endIndex
    mutate(.removal, at: IndexRanges(0..<count)) { $0.removeAll(keepingCapacity: keepCapacity) }
  }

  /// Removes the elements that satisfy `shouldBeRemoved`: one removal at
  /// their former positions (none when nothing matches).
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).removeAll { $0.isEmpty }
  /// ```
  public func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let current = array
    let removed = try current.indices.filter { try shouldBeRemoved(current[$0]) }
    guard !removed.isEmpty else { return }
    let positions = IndexRanges(normalizing: removed.map { $0..<$0 + 1 })
    mutate(.removal, at: positions) { positions.remove(from: &$0) }
  }

  /// Removes and returns the first element: one removal at 0.
  ///
  /// ```swift
  /// let first = person.mutableArrayValue(for: \.tags).removeFirst()
  /// ```
  @inlinable @discardableResult
  public func removeFirst() -> Element {
    if isEmpty { outOfRange("removeFirst() on an empty array") }
    return remove(at: 0)
  }

  /// Removes and returns the last element: one removal at its position.
  ///
  /// ```swift
  /// let last = person.mutableArrayValue(for: \.tags).removeLast()
  /// ```
  @inlinable @discardableResult
  public func removeLast() -> Element {
    let count = endIndex
    if count == 0 { outOfRange("removeLast() on an empty array") }
    return remove(at: count - 1)
  }

  // MARK: Replacement

  /// Replaces the elements in `bounds` with `newElements`: one replacement
  /// when the counts match, one insertion or removal when one side is
  /// empty, and otherwise a removal of `bounds` followed by an insertion of
  /// the new elements. `bounds` must lie in `0...count`.
  ///
  /// ```swift
  /// person.mutableArrayValue(for: \.tags).replaceSubrange(0..<2, with: ["x", "y"])  // .replacement
  /// ```
  public func replaceSubrange<C: Collection>(_ bounds: Range<Int>, with newElements: C)
  where C.Element == Element {
    let count = endIndex
    if bounds.lowerBound < 0 || bounds.upperBound > count {
      outOfRange("range \(bounds)", count: count)
    }
    let replacement = Array(newElements)
    switch (bounds.isEmpty, replacement.isEmpty) {
    case (true, true):
      return
    case (true, false):
      insert(contentsOf: replacement, at: bounds.lowerBound)
    case (false, true):
      mutate(.removal, at: IndexRanges(bounds)) { $0.removeSubrange(bounds) }
    case (false, false) where bounds.count == replacement.count:
      mutate(.replacement, at: IndexRanges(bounds)) { $0.replaceSubrange(bounds, with: replacement) }
    case (false, false):
      mutate(.removal, at: IndexRanges(bounds)) { $0.removeSubrange(bounds) }
      insert(contentsOf: replacement, at: bounds.lowerBound)
    }
  }

  /// Does nothing: the property's array grows as the object's setter
  /// stores it.
  ///
  /// ```swift
  /// tags.reserveCapacity(100)  // no effect
  /// ```
  public func reserveCapacity(_ minimumCapacity: Int) {}

  // MARK: Implementation

  /// Runs one mutation of the array as one notification of `kind` at
  /// `positions`: sorted, disjoint ranges.
  @inlinable
  func mutate(_ kind: KeyValueChange, at positions: IndexRanges, _ body: (inout [Element]) -> Void) {
    switch backing {
    case .inPlace(let storage, _):
      storage.change(ChangeShape(kind: kind, indexRanges: positions), values: { $0.elements(in: positions) }, body)
    case .property(let object, let keyPath):
      object.willChange(kind, at: positions, for: keyPath)
      body(&object[keyPath: keyPath])
      object.didChange(kind, at: positions, for: keyPath)
    case .detached(let detached):
      body(&detached.elements)
    }
  }

  /// Stops the program, naming the key, when `position` is not in `valid`
  /// for an array of `count` elements: what `Array` does.
  @inlinable
  func requirePosition(_ position: Int, in valid: Range<Int>, count: Int) {
    if !valid.contains(position) {
      outOfRange("index \(position)", count: count)
    }
  }

  /// Stops the program: `what` (a position or range) is outside an array
  /// of `count` elements.
  @usableFromInline @inline(never)
  func outOfRange(_ what: String, count: Int) -> Never {
    outOfRange("\(what) is out of range for \(count.elementCount)")
  }

  /// Stops the program with `problem`, naming the class and key: a
  /// mutation out of range is never dropped in silence. The message is
  /// printed in release builds too.
  @usableFromInline @inline(never)
  func outOfRange(_ problem: String) -> Never {
    let name: String
    switch backing {
    case .inPlace(_, let keyPath), .property(_, let keyPath):
      let key = Object.describe(keyPath)
      name = key.hasPrefix("\\") ? key : "\\\(Object.self).\(key)"
    case .detached: name = "a detached array"
    }
    fatalError("mutableArrayValue(for: \(name)): \(problem)")
  }
}
