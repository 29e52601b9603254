import KeyValueObserving
import Testing

/// The positions of a to-many change: one type, ``KeyValueIndexSet``, on
/// every OS, in a change record, a change dictionary and the manual forms;
/// and the forms 0.1.0 spelled with `RangeSet` or `[Range<Int>]` still
/// forward to it.
@Suite("A to-many change's positions: one KeyValueIndexSet on every OS")
struct ChangePositionsTests {
  @Test("a record's indexes are the dictionary's, merged and sorted")
  func recordMatchesDictionary() throws {
    let person = Person()
    person.tags = ["a", "b", "c", "d"]
    var seen: [KeyValueObservedChange<[String]>] = []
    let token = person.observe(\.tags, options: [.old]) { _, change in seen.append(change) }
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "tags", options: [.old])
    defer { person.removeObserver(log, forKeyPath: "tags") }
    let tags = person.mutableArrayValue(for: \.tags)
    tags.swapAt(1, 2)  // two neighbours: one range
    tags.removeAll { $0 == "a" || $0 == "d" }  // two ranges apart
    #expect(seen.map(\.indexes) == [[1..<3], [0..<1, 3..<4]])
    #expect(seen.last?.indexes == log.last?.change[.indexes] as? KeyValueIndexSet)
    #expect(person.tags == ["c", "b"])
    token.invalidate()
  }

  @Test("an assignment has no indexes")
  func setting() {
    let person = Person()
    var seen: [KeyValueIndexSet?] = []
    let token = person.observe(\.tags) { _, change in seen.append(change.indexes) }
    person.tags = ["x"]
    #expect(seen == [nil])
    token.invalidate()
  }

  @Test("willChange/didChange(_:valuesAt:for:) take an array literal of ranges in any order")
  func manualPair() {
    let person = Person()
    person.tags = ["a", "b", "c"]
    let (changes, token) = record(person, \.tags)
    person.willChange(.removal, valuesAt: [2..<3, 0..<1, 1..<2, 1..<1], for: \.tags)
    person.tags.removeAll()
    person.didChange(.removal, valuesAt: [2..<3, 0..<1, 1..<2, 1..<1], for: \.tags)
    #expect(changes.elements == [CollectionChange(.removal, [0..<3], old: ["a", "b", "c"])])
    withExtendedLifetime(token) {}
  }

  @Test("a change record built from overlapping ranges equals one built from their union")
  func records() {
    let fromPieces = KeyValueObservedChange(kind: .insertion, newValue: ["x", "y"], indexes: [3..<4, 2..<3])
    let fromUnion = KeyValueObservedChange(kind: .insertion, newValue: ["x", "y"], indexes: [2..<4])
    #expect(fromPieces == fromUnion)
    #expect(fromPieces.hashValue == fromUnion.hashValue)
    let overlapping = KeyValueObservedChange(kind: .removal, oldValue: [1], indexes: [4..<6, 1..<3, 2..<5, 8..<8])
    #expect(overlapping.indexes?.ranges == [1..<6], "overlapping ranges merge; an empty one is dropped")
    #expect(KeyValueObservedChange<Int>(kind: .setting, newValue: 1).indexes == nil)
  }

  @Test("0.1.0's spellings (valuesIn:, indexRanges, a RangeSet) forward to the same change")
  func zeroOneSpellings() {
    let legacy: any ZeroOneIndexSpellings = ZeroOneIndexCalls()
    let person = Person()
    person.tags = ["a"]
    let (changes, token) = record(person, \.tags)
    legacy.insertPair(person, ["b", "c"], at: [1..<3])
    legacy.insertInClosure(person, ["d"], at: [3..<4])
    #expect(changes.elements == [
      CollectionChange(.insertion, [1..<3], new: ["b", "c"]),
      CollectionChange(.insertion, [3..<4], new: ["d"]),
    ])
    let change = legacy.record(newValue: ["x"], ranges: [4..<5, 0..<1])
    #expect(change.indexes == [0..<1, 4..<5])
    #expect(legacy.ranges(of: change) == [0..<1, 4..<5])
    withExtendedLifetime(token) {}
  }
}

/// The calls 0.1.0's users wrote. Its witness is deprecated, so calling the
/// deprecated forms warns nowhere, while the test still goes through them.
protocol ZeroOneIndexSpellings {
  func insertPair(_ person: Person, _ elements: [String], at ranges: [Range<Int>])
  func insertInClosure(_ person: Person, _ elements: [String], at ranges: [Range<Int>])
  func record(newValue: [String], ranges: [Range<Int>]) -> KeyValueObservedChange<[String]>
  func ranges(of change: KeyValueObservedChange<[String]>) -> [Range<Int>]?
}

struct ZeroOneIndexCalls: ZeroOneIndexSpellings {
  @available(*, deprecated)
  func insertPair(_ person: Person, _ elements: [String], at ranges: [Range<Int>]) {
    person.willChange(.insertion, valuesIn: ranges, for: \.tags)
    person.tags += elements
    person.didChange(.insertion, valuesIn: ranges, for: \.tags)
  }

  @available(*, deprecated)
  func insertInClosure(_ person: Person, _ elements: [String], at ranges: [Range<Int>]) {
    person.withChange(.insertion, valuesIn: ranges, for: \.tags) { person.tags += elements }
  }

  @available(*, deprecated)
  func record(newValue: [String], ranges: [Range<Int>]) -> KeyValueObservedChange<[String]> {
    KeyValueObservedChange(kind: .insertion, newValue: newValue, indexRanges: ranges)
  }

  @available(*, deprecated)
  func ranges(of change: KeyValueObservedChange<[String]>) -> [Range<Int>]? {
    change.indexRanges
  }
}
