/// The positions a to-many change touched: a change record's
/// ``KeyValueObservedChange/indexes``, a change dictionary's
/// ``KeyValueChangeKey/indexes``, and what the manual to-many forms take.
/// It is one type on every OS the package supports.
///
/// It holds sorted, non-negative positions as ranges that neither overlap
/// nor touch, as `IndexSet` and `RangeSet<Int>` do. An array literal of
/// ranges makes one: `valuesAt: [2..<4]`.
///
/// | to | write |
/// |---|---|
/// | `RangeSet<Int>` (macOS 15, iOS 18) | `RangeSet(indexes)` |
/// | Foundation's `IndexSet` | `indexes.ranges.forEach { set.insert(integersIn: $0) }` |
/// | positions | `for position in indexes { … }` |
///
/// ```swift
/// func observeValue(forKeyPath keyPath: String, of object: AnyObject,
///                   change: [KeyValueChangeKey: Any], context: UnsafeMutableRawPointer?) {
///     guard let indexes = change[.indexes] as? KeyValueIndexSet else { return }
///     print(indexes.ranges)                                // [2..<4]
///     collectionView.insertItems(at: indexes.map { IndexPath(item: $0, section: 0) })
///     var set = IndexSet()                                  // with Foundation
///     for range in indexes.ranges { set.insert(integersIn: range) }
/// }
/// ```
public struct KeyValueIndexSet: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
  /// The positions, kept as a change record keeps them: one range inline.
  let positions: IndexRanges

  init(_ positions: IndexRanges) {
    self.positions = positions
  }

  /// The positions in `ranges`, which may come in any order; overlapping
  /// and touching ranges are merged, empty ones dropped. Positions are
  /// never negative: the negative part of a range is dropped.
  ///
  /// ```swift
  /// KeyValueIndexSet([4..<6, 0..<1, 5..<8]).ranges  // [0..<1, 4..<8]
  /// KeyValueIndexSet([-3..<2]).ranges                // [0..<2]
  /// ```
  public init(_ ranges: some Sequence<Range<Int>>) {
    self.init(IndexRanges(normalizing: ranges.lazy.map { Swift.max(0, $0.lowerBound)..<Swift.max(0, $0.upperBound) }))
  }

  /// The positions in the ranges of an array literal, as
  /// `KeyValueIndexSet(_:)` takes a sequence of them.
  ///
  /// ```swift
  /// person.willChange(.removal, valuesAt: [0..<1, 4..<6], for: \.tags)
  /// ```
  public init(arrayLiteral ranges: Range<Int>...) {
    self.init(ranges)
  }

  /// The positions in `range`.
  ///
  /// ```swift
  /// KeyValueIndexSet(integersIn: 2..<4).count  // 2
  /// ```
  public init(integersIn range: Range<Int>) {
    self.init(CollectionOfOne(range))
  }

  /// The positions of a `RangeSet`.
  ///
  /// ```swift
  /// KeyValueIndexSet(RangeSet(2..<4)).ranges  // [2..<4]
  /// ```
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  public init(_ rangeSet: RangeSet<Int>) {
    self.init(rangeSet.ranges)
  }

  /// The positions as sorted ranges that neither overlap nor touch.
  ///
  /// ```swift
  /// for range in indexes.ranges { print(range) }
  /// ```
  public var ranges: [Range<Int>] { positions.mergedRanges }

  /// How many positions there are.
  ///
  /// ```swift
  /// KeyValueIndexSet([0..<2, 5..<6]).count  // 3
  /// ```
  public var count: Int { positions.mergedRanges.reduce(0) { $0 + $1.count } }

  /// Whether there is no position.
  ///
  /// ```swift
  /// KeyValueIndexSet([]).isEmpty  // true
  /// ```
  public var isEmpty: Bool { positions.mergedRanges.isEmpty }

  /// Whether `position` is one of them.
  ///
  /// ```swift
  /// KeyValueIndexSet(integersIn: 2..<4).contains(3)  // true
  /// ```
  public func contains(_ position: Int) -> Bool {
    positions.mergedRanges.contains { $0.contains(position) }
  }

  /// The positions in ascending order.
  ///
  /// ```swift
  /// Array(KeyValueIndexSet([0..<2, 5..<6]))  // [0, 1, 5]
  /// ```
  public func makeIterator() -> FlattenSequence<[Range<Int>]>.Iterator {
    positions.mergedRanges.joined().makeIterator()
  }

  public var underestimatedCount: Int { count }

  /// The ranges, as `IndexSet` and `RangeSet` print theirs: `[2..<4]`.
  public var description: String { "[" + ranges.map { "\($0)" }.joined(separator: ", ") + "]" }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension RangeSet where Bound == Int {
  /// The positions of a change's ``KeyValueIndexSet``.
  ///
  /// ```swift
  /// let set = RangeSet(change[.indexes] as! KeyValueIndexSet)
  /// ```
  public init(_ indexes: KeyValueIndexSet) {
    self.init(indexes.ranges)
  }
}
