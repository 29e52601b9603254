/// The positions a to-many change touches: sorted, disjoint ranges, as a
/// `RangeSet` holds them, with one range kept inline, so that a change at one range
/// — an append, an insertion, a removal — allocates nothing for its
/// positions.
///
/// `RangeSet` needs macOS 15 and iOS 18, and it comes from the resilient
/// standard library, so storing one
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

  /// `ranges` in any order, overlapping or touching: sorted, merged, and
  /// without empty ranges.
  init(normalizing ranges: some Sequence<Range<Int>>) {
    self.init(Self.merged(ranges.sorted { $0.lowerBound < $1.lowerBound }))
  }

  /// Sorted ranges with those that overlap or touch merged, and empty ones
  /// dropped: what a `RangeSet` holds for them.
  static func merged(_ sorted: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in sorted where !range.isEmpty {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
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

  /// The ranges with touching ones merged: adjacent ranges written apart
  /// (a swap of neighbours) become the one range a `RangeSet` makes of
  /// them.
  var mergedRanges: [Range<Int>] {
    switch self {
    case .single(let lower, let upper): lower == upper ? [] : [Int(lower)..<Int(upper)]
    case .multiple(let ranges): Self.merged(ranges)
    }
  }

  /// Equal when they name the same positions, so that a change record
  /// equals one built from a `RangeSet` of the same positions.
  @usableFromInline
  static func == (lhs: IndexRanges, rhs: IndexRanges) -> Bool {
    lhs.mergedRanges == rhs.mergedRanges
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    for range in mergedRanges {
      hasher.combine(range.lowerBound)
      hasher.combine(range.upperBound)
    }
  }

  /// Removes the elements at these positions from `array`, in one pass.
  func remove<Element>(from array: inout [Element]) {
    let ranges = self.ranges
    var kept: [Element] = []
    kept.reserveCapacity(array.count - ranges.reduce(0) { $0 + $1.count })
    var start = 0
    for range in ranges {
      kept += array[start..<range.lowerBound]
      start = range.upperBound
    }
    kept += array[start...]
    array = kept
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
