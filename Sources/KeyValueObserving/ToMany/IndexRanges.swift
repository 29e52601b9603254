/// The positions a to-many change touches: the sorted, disjoint ranges of
/// a `RangeSet`, with one range kept inline, so that a change at one range
/// — an append, an insertion, a removal — allocates nothing for its
/// positions.
///
/// `RangeSet` comes from the resilient standard library, so storing one
/// would give every change record a layout known only at run time and make
/// each notification go through value witnesses; this has a fixed layout,
/// and keeps a one-range change in one word, so that every change record —
/// an assignment's too — is as small as with an array reference alone
/// (a larger record made a write with ten observers measurably slower).
///
/// Not API.
@usableFromInline
enum IndexRanges: Sendable, Hashable {
  /// One range whose bounds fit in `Int32` (any array below two billion
  /// elements; beyond, a one-range change is `multiple`): what most
  /// changes touch.
  case single(lower: Int32, upper: Int32)
  /// Any number of ranges.
  case multiple([Range<Int>])

  /// One range.
  @inlinable
  init(_ range: Range<Int>) {
    if let lower = Int32(exactly: range.lowerBound), let upper = Int32(exactly: range.upperBound) {
      self = .single(lower: lower, upper: upper)
    } else {
      self = .multiple([range])
    }
  }

  /// `ranges`, sorted and disjoint.
  @inlinable
  init(_ ranges: some Collection<Range<Int>>) {
    self = ranges.count == 1 ? IndexRanges(ranges.first.unsafelyUnwrapped) : .multiple(Array(ranges))
  }

  /// The positions of a `RangeSet`.
  @usableFromInline
  init(_ indexes: RangeSet<Int>) {
    self.init(indexes.ranges)
  }

  /// Every range, in order (allocates for one range: for messages and
  /// rare paths).
  @usableFromInline
  var ranges: [Range<Int>] {
    switch self {
    case .single(let lower, let upper): [Int(lower)..<Int(upper)]
    case .multiple(let ranges): ranges
    }
  }

  /// The positions as a `RangeSet`.
  var rangeSet: RangeSet<Int> {
    switch self {
    case .single(let lower, let upper): RangeSet(Int(lower)..<Int(upper))
    case .multiple(let ranges): RangeSet(ranges)
    }
  }

  /// Equal when they name the same positions: adjacent ranges written
  /// apart (a swap of neighbours) equal the one range a `RangeSet` makes
  /// of them, so that a change record equals one built from the RangeSet.
  @usableFromInline
  static func == (lhs: IndexRanges, rhs: IndexRanges) -> Bool {
    lhs.rangeSet == rhs.rangeSet
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(rangeSet)
  }

  /// Whether every range lies in `0..<count`.
  @inlinable
  func lie(within count: Int) -> Bool {
    let inside = { (range: Range<Int>) in range.lowerBound >= 0 && range.upperBound <= count }
    switch self {
    case .single(let lower, let upper): return inside(Int(lower)..<Int(upper))
    case .multiple(let ranges): return ranges.allSatisfy(inside)
    }
  }
}
