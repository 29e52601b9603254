import Foundation
import KeyValueObserving
import Testing

@Suite("A change dictionary's indexes: one type on every OS, converted to IndexSet and RangeSet")
struct ChangeIndexSetTests {
  @Test("a proxy's insertion carries a KeyValueIndexSet that a collection view's code reads as it would an IndexSet")
  func dictionaryCarriesIndexSet() throws {
    let person = Person()
    person.tags = ["a", "b", "c", "d"]
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "tags", options: [.new])
    defer { person.removeObserver(log, forKeyPath: "tags") }
    person.mutableArrayValue(for: \.tags).insert(contentsOf: ["x", "y"], at: 1)
    let indexes = try #require(log.last?.change[.indexes] as? KeyValueIndexSet)
    #expect(indexes.ranges == [1..<3])
    #expect(Array(indexes) == [1, 2] && indexes.count == 2)
    #expect(IndexSet(indexes) == IndexSet(integersIn: 1..<3), "Foundation's IndexSet takes it as any sequence of positions")
    var byRanges = IndexSet()
    for range in indexes.ranges { byRanges.insert(integersIn: range) }
    #expect(byRanges == IndexSet(indexes), "or range by range, as the documentation shows for large sets")
    #expect(RangeSet(indexes) == RangeSet(1..<3))
    #expect(KeyValueIndexSet(RangeSet(1..<3)) == indexes, "and back")
    #expect(indexes.description == "[1..<3]")
    // A setting carries none.
    person.tags = []
    #expect(log.last?.change[.indexes] == nil)
  }

  @Test("a removal of scattered elements carries every range, merged and sorted")
  func scatteredRemoval() throws {
    let person = Person()
    person.tags = ["a", "b", "c", "d", "e", "f"]
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "tags", options: [.old])
    defer { person.removeObserver(log, forKeyPath: "tags") }
    person.mutableArrayValue(for: \.tags).removeAll { ["a", "b", "e", "f"].contains($0) }
    let indexes = try #require(log.last?.change[.indexes] as? KeyValueIndexSet)
    #expect(indexes.ranges == [0..<2, 4..<6])
    #expect(indexes.contains(5) && !indexes.contains(2))
    #expect(log.last?.change[.old] as? [String] == ["a", "b", "e", "f"])
  }

  @Test("a set built from ranges in any order keeps them as IndexSet would")
  func normalisedRanges() {
    let set = KeyValueIndexSet([4..<6, 0..<1, 5..<8, 9..<9])
    #expect(set.ranges == [0..<1, 4..<8])
    #expect(set == KeyValueIndexSet([0..<1, 4..<6, 6..<8]), "equal when they hold the same positions")
    #expect(KeyValueIndexSet([]).isEmpty && KeyValueIndexSet(integersIn: 2..<4).count == 2)
    // Positions are never negative, so a count never overflows.
    #expect(KeyValueIndexSet([-3..<2]).ranges == [0..<2])
    #expect(KeyValueIndexSet([Int.min..<0, 0..<Int.max]).count == Int.max)
  }

  @Test("the kind's raw values are NSKeyValueChange's, for ported code that compares them")
  func kindRawValues() {
    #expect(KeyValueChange.allRawValues == [1, 2, 3, 4])
    #expect(KeyValueChange(rawValue: 2) == .insertion)
  }
}

extension KeyValueChange {
  fileprivate static var allRawValues: [UInt] { [setting, insertion, removal, replacement].map(\.rawValue) }
}
