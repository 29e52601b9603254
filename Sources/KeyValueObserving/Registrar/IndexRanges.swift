/// The positions a to-many change touches: the sorted, disjoint ranges of
/// a `RangeSet`, with one range kept inline, so that a change at one range
/// — an append, an insertion, a removal — allocates nothing for its
/// positions.
///
/// `RangeSet` comes from the resilient standard library, so storing one
/// would give every change record a layout known only at run time and make
/// each notification go through value witnesses; this has a fixed layout,
/// small enough that a change record is still copied and destroyed inline.
///
/// Not API.
///
/// ```swift
/// // IndexRanges(3..<4)               // a proxy's append to 3 elements
/// // IndexRanges([0..<1, 2..<3])      // a replacement at 0 and 2
/// ```
@usableFromInline
enum IndexRanges: Sendable, Hashable {
  /// One range: what most changes touch.
  case single(Range<Int>)
  /// Any number of ranges.
  case multiple([Range<Int>])

  /// One range.
  @inlinable
  init(_ range: Range<Int>) {
    self = .single(range)
  }

  /// `ranges`, sorted and disjoint.
  @inlinable
  init(_ ranges: some Collection<Range<Int>>) {
    self = ranges.count == 1 ? .single(ranges.first.unsafelyUnwrapped) : .multiple(Array(ranges))
  }

  /// The positions of a `RangeSet`.
  @usableFromInline
  init(_ indexes: RangeSet<Int>) {
    self.init(indexes.ranges)
  }

  /// Every range, in order (allocates for one range: for messages and
  /// rare paths).
  var ranges: [Range<Int>] {
    switch self {
    case .single(let range): [range]
    case .multiple(let ranges): ranges
    }
  }

  /// The positions as a `RangeSet`.
  var rangeSet: RangeSet<Int> {
    switch self {
    case .single(let range): RangeSet(range)
    case .multiple(let ranges): RangeSet(ranges)
    }
  }

  /// Whether every range lies in `0..<count`.
  @inlinable
  func lie(within count: Int) -> Bool {
    let inside = { (range: Range<Int>) in range.lowerBound >= 0 && range.upperBound <= count }
    switch self {
    case .single(let range): return inside(range)
    case .multiple(let ranges): return ranges.allSatisfy(inside)
    }
  }
}
