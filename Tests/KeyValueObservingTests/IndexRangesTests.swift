import KeyValueObserving
import Testing

/// The positions of a to-many change as ranges, the form every OS has
/// (`RangeSet` needs macOS 15 and iOS 18): what `indexRanges` reads, what
/// the `valuesIn:` forms take, and that both agree with `indexes`.
@Suite("Index ranges: a to-many change's positions on every OS")
struct IndexRangesTests {
  @Test("indexRanges holds the same positions as indexes, merged as a RangeSet merges them")
  func sameAsRangeSet() {
    let person = Person()
    person.tags = ["a", "b", "c", "d"]
    var seen: [KeyValueObservedChange<[String]>] = []
    let token = person.observe(\.tags, options: [.old]) { _, change in seen.append(change) }
    let tags = person.mutableArrayValue(for: \.tags)
    tags.swapAt(1, 2)  // two neighbours: one range
    tags.removeAll { $0 == "a" || $0 == "d" }  // two ranges apart
    #expect(seen.map(\.indexRanges) == [[1..<3], [0..<1, 3..<4]])
    #expect(seen.map { $0.indexes?.ranges.map { $0 } } == seen.map(\.indexRanges))
    #expect(person.tags == ["c", "b"])
    token.invalidate()
  }

  @Test("an assignment has no index ranges")
  func setting() {
    let person = Person()
    var seen: [[Range<Int>]?] = []
    let token = person.observe(\.tags) { _, change in seen.append(change.indexRanges) }
    person.tags = ["x"]
    #expect(seen == [nil])
    token.invalidate()
  }

  @Test("willChange/didChange(_:valuesIn:for:) notify once with the ranges sorted and merged")
  func manualPair() {
    let person = Person()
    person.tags = ["a", "b", "c"]
    let (changes, token) = record(person, \.tags)
    person.willChange(.removal, valuesIn: [2..<3, 0..<1, 1..<2, 1..<1], for: \.tags)
    person.tags.removeAll()
    person.didChange(.removal, valuesIn: [2..<3, 0..<1, 1..<2, 1..<1], for: \.tags)
    #expect(changes.elements == [CollectionChange(.removal, [0..<3], old: ["a", "b", "c"])])
    withExtendedLifetime(token) {}
  }

  @Test("withChange(_:valuesIn:for:_:) is one change around its body")
  func closureForm() {
    let person = Person()
    person.tags = ["a"]
    let (changes, token) = record(person, \.tags)
    let count = person.withChange(.insertion, valuesIn: [1..<3], for: \.tags) {
      person.tags += ["b", "c"]
      return person.tags.count
    }
    #expect(count == 3)
    #expect(changes.elements == [CollectionChange(.insertion, [1..<3], new: ["b", "c"])])
    withExtendedLifetime(token) {}
  }

  @Test("a change record built from ranges equals one built from the RangeSet of the same positions")
  func records() {
    let fromRanges = KeyValueObservedChange(kind: .insertion, newValue: ["x", "y"], indexRanges: [3..<4, 2..<3])
    let fromRangeSet = KeyValueObservedChange(kind: .insertion, newValue: ["x", "y"], indexes: RangeSet(2..<4))
    #expect(fromRanges == fromRangeSet)
    #expect(fromRanges.hashValue == fromRangeSet.hashValue)
    #expect(fromRanges.indexRanges == [2..<4])
    let overlapping = KeyValueObservedChange(kind: .removal, oldValue: [1], indexRanges: [4..<6, 1..<3, 2..<5, 8..<8])
    #expect(overlapping.indexRanges == [1..<6], "overlapping ranges merge; an empty one is dropped")
    #expect(KeyValueObservedChange<Int>(kind: .setting, newValue: 1).indexRanges == nil)
  }
}
