// Sorting, reversing, shuffling and moving: each call works out the new
// order first, then makes it in one change of the key, one `.replacement`
// at the positions whose element changed. `MutableCollection`'s own forms
// would write element by element, one notification each, and observers
// would see the array with an element twice on the way.

extension KeyValueMutableArray {
  /// Sorts the array with `areInIncreasingOrder`, as `Array`'s
  /// `sort(by:)` does: one replacement at the positions whose element
  /// changed, and nothing when the array is already in order.
  ///
  /// The sort is stable, so equal elements keep their places and are not
  /// notified. A comparator that throws leaves the array as it was and
  /// notifies nothing.
  ///
  /// ```swift
  /// // tags: ["b", "c", "a"]
  /// tags.sort { $0 > $1 }  // .replacement at [0..<2], old ["b", "c"], new ["c", "b"]
  /// ```
  ///
  /// - Complexity: O(*n* log *n*) comparisons, then one change of O(*n*).
  @inlinable
  public func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    reorder(try order(sortedBy: areInIncreasingOrder), "sort(by:)")
  }

  /// The positions of the elements in the order `areInIncreasingOrder`
  /// sorts them, worked out as `Array`'s `sort(by:)` sorts: stable.
  @inlinable
  func order(sortedBy areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows -> [Int] {
    let elements = array
    var order = Array(elements.indices)
    try order.sort { try areInIncreasingOrder(elements[$0], elements[$1]) }
    return order
  }

  /// Reverses the array: one replacement at every position but the middle
  /// one of an odd count, and nothing for fewer than two elements.
  ///
  /// ```swift
  /// // tags: ["a", "b", "c"]
  /// tags.reverse()  // .replacement at [0..<1, 2..<3], old ["a", "c"], new ["c", "a"]
  /// ```
  public func reverse() {
    reorder(Array(indices.reversed()), "reverse()")
  }

  /// Shuffles the array with the system's random number generator: one
  /// replacement at the positions whose element changed.
  ///
  /// ```swift
  /// tags.shuffle()  // .replacement at the positions that got another tag
  /// ```
  @inlinable
  public func shuffle() {
    var generator = SystemRandomNumberGenerator()
    shuffle(using: &generator)
  }

  /// Shuffles the array with `generator`: one replacement at the positions
  /// whose element changed. It draws from `generator` as `Array`'s
  /// `shuffle(using:)` does, so a generator in the same state gives the
  /// same order.
  ///
  /// ```swift
  /// var generator = SeededGenerator(seed: 7)  // any RandomNumberGenerator
  /// tags.shuffle(using: &generator)
  /// ```
  @inlinable
  public func shuffle(using generator: inout some RandomNumberGenerator) {
    var order = Array(indices)
    order.shuffle(using: &generator)
    reorder(order, "shuffle(using:)")
  }

  /// Moves the elements at `source` so that they stand, in their order,
  /// before the element that was at `destination`, as SwiftUI's
  /// `move(fromOffsets:toOffset:)` does: one replacement at the positions
  /// whose element changed.
  ///
  /// `destination` is counted in the array before the move, and may be
  /// `count` to move the elements to the end. Every offset in `source` must
  /// be in the array. SwiftUI's `onMove` hands an `IndexSet`; make one of
  /// its ranges, as the example shows.
  ///
  /// ```swift
  /// // tags: ["a", "b", "c", "d"]
  /// tags.move(fromOffsets: [0..<1], toOffset: 3)  // .replacement at [0..<3], new ["b", "c", "a"]
  ///
  /// List { … }.onMove { offsets, destination in
  ///     tags.move(fromOffsets: KeyValueIndexSet(offsets.rangeView), toOffset: destination)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - source: The offsets of the elements to move.
  ///   - destination: The offset, before the move, of the element to move
  ///     them before; `count` for the end.
  public func move(fromOffsets source: KeyValueIndexSet, toOffset destination: Int) {
    let count = endIndex
    if destination < 0 || destination > count {
      outOfRange("offset \(destination)", count: count)
    }
    let moving = source.ranges
    if let last = moving.last, last.upperBound > count {
      outOfRange("offsets \(source) are out of range for \(count.elementCount)")
    }
    var order: [Int] = []
    order.reserveCapacity(count)
    // The elements that stay, before the destination; then those that move;
    // then the rest of those that stay.
    var start = 0
    for range in moving where range.lowerBound < destination {
      order += start..<range.lowerBound
      start = range.upperBound
    }
    order += start..<Swift.max(start, destination)
    for range in moving { order += range }
    start = Swift.max(start, destination)
    for range in moving where range.upperBound > start {
      order += start..<Swift.max(start, range.lowerBound)
      start = range.upperBound
    }
    order += start..<count
    reorder(order, "move(fromOffsets:toOffset:)")
  }

  /// Puts the element that was at `order[i]` at `i`, for every `i`, in one
  /// replacement at the positions whose element changes; nothing when none
  /// does. `order` is a permutation of `0..<count`, worked out from the
  /// array as the call found it.
  ///
  /// The elements are moved inside the change, in the array as it is then:
  /// a `.prior` callback that changed it makes the notification a setting,
  /// and one that left it too short for the positions stops the program.
  @usableFromInline
  func reorder(_ order: [Int], _ operation: StaticString) {
    var moved: [Range<Int>] = []
    var position = 0
    while position < order.count {
      guard order[position] != position else {
        position += 1
        continue
      }
      let start = position
      while position < order.count && order[position] != position { position += 1 }
      moved.append(start..<position)
    }
    guard let end = moved.last?.upperBound else { return }
    mutate(.replacement, at: IndexRanges(moved)) { elements in
      if elements.count < end {
        outOfRange("index \(end - 1), which \(operation) moves,", count: elements.count)
      }
      // Every position an element leaves is one an element arrives at:
      // the elements to write are read from the moved positions alone.
      let arriving = moved.flatMap { range in range.map { elements[order[$0]] } }
      var next = arriving.startIndex
      for range in moved {
        for position in range {
          elements[position] = arriving[next]
          next += 1
        }
      }
    }
  }
}

extension KeyValueMutableArray where Element: Comparable {
  /// Sorts the array in ascending order: one replacement at the positions
  /// whose element changed, and nothing when the array is already sorted.
  ///
  /// ```swift
  /// // tags: ["b", "c", "a"]
  /// tags.sort()  // .replacement at [0..<3], old ["b", "c", "a"], new ["a", "b", "c"]
  /// ```
  ///
  /// - Complexity: O(*n* log *n*) comparisons, then one change of O(*n*).
  @inlinable
  public func sort() {
    reorder(order(sortedBy: <), "sort()")
  }
}
