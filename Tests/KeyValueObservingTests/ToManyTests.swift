import KeyValueObserving
import Testing

@Suite("To-many: array and set proxies, and manual to-many notification")
struct ToManyTests {
  @Test("appending is one insertion at the new positions, with the new elements only")
  func appending() {
    let person = Person()
    person.tags = ["a"]
    let (changes, token) = record(person, \.tags)
    let tags = person.mutableArrayValue(for: \.tags)
    tags.append("b")
    tags.append(contentsOf: ["c", "d"])
    #expect(person.tags == ["a", "b", "c", "d"])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [1..<2], new: ["b"]),
        CollectionChange(.insertion, [2..<4], new: ["c", "d"]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("inserting, removing and replacing notify their kind, indexes and the touched elements")
  func kinds() {
    let person = Person()
    person.tags = ["a", "b", "c"]
    let (changes, token) = record(person, \.tags)
    let tags = person.mutableArrayValue(for: \.tags)
    tags.insert("x", at: 1)
    #expect(tags.remove(at: 0) == "a")
    tags[0] = "X"
    tags.swapAt(0, 2)
    #expect(person.tags == ["c", "b", "X"])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [1..<2], new: ["x"]),
        CollectionChange(.removal, [0..<1], old: ["a"]),
        CollectionChange(.replacement, [0..<1], old: ["x"], new: ["X"]),
        CollectionChange(.replacement, [0..<1, 2..<3], old: ["X", "c"], new: ["c", "X"]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("removeAll is one removal of everything; removeAll(where:) one removal at scattered indexes")
  func removals() {
    let person = Person()
    person.tags = ["a", "bb", "c", "dd", "e"]
    let (changes, token) = record(person, \.tags)
    let tags = person.mutableArrayValue(for: \.tags)
    tags.removeAll { $0.count == 2 }
    tags.removeAll(where: { $0 == "zzz" })
    tags.removeAll()
    #expect(person.tags.isEmpty)
    #expect(
      changes.elements == [
        CollectionChange(.removal, [1..<2, 3..<4], old: ["bb", "dd"]),
        CollectionChange(.removal, [0..<3], old: ["a", "c", "e"]),
      ], "a predicate that matches nothing changes nothing and notifies nothing")
    withExtendedLifetime(token) {}
  }

  @Test("replaceSubrange: a replacement when the counts match, else a removal then an insertion")
  func replacingRanges() {
    let person = Person()
    person.tags = ["a", "b", "c"]
    let (changes, token) = record(person, \.tags)
    let tags = person.mutableArrayValue(for: \.tags)
    tags.replaceSubrange(0..<2, with: ["x", "y"])
    tags.replaceSubrange(1..<3, with: ["z"])
    #expect(person.tags == ["x", "z"])
    #expect(
      changes.elements == [
        CollectionChange(.replacement, [0..<2], old: ["a", "b"], new: ["x", "y"]),
        CollectionChange(.removal, [1..<3], old: ["y", "c"]),
        CollectionChange(.insertion, [1..<2], new: ["z"]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("assigning the property stays a setting; .initial delivers the whole collection")
  func settingAndInitial() {
    let person = Person()
    person.tags = ["a"]
    let (changes, token) = record(person, \.tags, options: [.initial, .old, .new])
    person.tags = ["b", "c"]
    #expect(
      changes.elements == [
        CollectionChange(.setting, nil, new: ["a"]),
        CollectionChange(.setting, nil, old: ["a"], new: ["b", "c"]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("an observer that did not ask for .old gets no old elements, even when another did")
  func optionsPerObserver() {
    let person = Person()
    person.tags = ["a", "b"]
    let (both, first) = record(person, \.tags, options: [.old, .new])
    let (newOnly, second) = record(person, \.tags, options: .new)
    let (bare, third) = record(person, \.tags, options: [])
    person.mutableArrayValue(for: \.tags)[1] = "B"
    #expect(both.elements == [CollectionChange(.replacement, [1..<2], old: ["b"], new: ["B"])])
    #expect(newOnly.elements == [CollectionChange(.replacement, [1..<2], new: ["B"])])
    #expect(bare.elements == [CollectionChange(.replacement, [1..<2])])
    withExtendedLifetime((first, second, third)) {}
  }

  @Test(".prior comes before a proxy mutation with the kind, indexes and old elements")
  func prior() {
    let person = Person()
    person.tags = ["a", "b"]
    let (changes, token) = record(person, \.tags, options: [.prior, .old, .new])
    person.mutableArrayValue(for: \.tags).remove(at: 1)
    #expect(
      changes.elements == [
        CollectionChange(.removal, [1..<2], old: ["b"], isPrior: true),
        CollectionChange(.removal, [1..<2], old: ["b"]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("a classic observer receives the kind, the indexes and the elements in its dictionary")
  func classicObserver() throws {
    let person = Person()
    person.tags = ["a"]
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "tags", options: [.old, .new])
    person.mutableArrayValue(for: \.tags).append(contentsOf: ["b", "c"])
    let change = try #require(log.last)
    #expect(change.kind == .insertion)
    #expect(change.keys == ["indexes", "kind", "new"], "an insertion has no old elements")
    #expect(change.change[.new] as? [String] == ["b", "c"])
    #expect((change.change[.indexes] as? KeyValueIndexSet)?.ranges == [1..<3])
  }

  @Test("manual willChange/didChange(_:valuesAt:for:) notify once; assignments inside fold into it")
  func manualToMany() {
    let person = Person()
    person.tags = ["a", "b"]
    let (changes, token) = record(person, \.tags)
    person.willChange(.insertion, valuesAt: [0..<2], for: \.tags)
    person.tags.insert("y", at: 0)
    person.tags.insert("x", at: 0)
    person.didChange(.insertion, valuesAt: [0..<2], for: \.tags)
    #expect(changes.elements == [CollectionChange(.insertion, [0..<2], new: ["x", "y"])])
    withExtendedLifetime(token) {}
  }

  @Test("indexes outside the array in a manual notification are reported and left out of its values")
  func manualOutOfRange() {
    let person = Person()
    person.tags = ["a"]
    let (changes, token) = record(person, \.tags)
    let diagnostics = capturingDiagnostics {
      person.willChange(.removal, valuesAt: [0..<3], for: \.tags)
      person.tags.removeAll()
      person.didChange(.removal, valuesAt: [0..<3], for: \.tags)
    }
    #expect(diagnostics.map(\.kind) == [.indexesOutOfRange])
    #expect(diagnostics.first?.message.contains("the array has 1 element;") == true)
    #expect(changes.elements == [CollectionChange(.removal, [0..<3], old: ["a"])])
    withExtendedLifetime(token) {}
  }

  // Exit tests run where a test can start a process: not on iOS, tvOS,
  // watchOS or visionOS.
  #if os(macOS) || os(Linux) || os(Windows)
    @Test("a proxy mutation outside the array stops the program, as Array does, naming the key and the count")
    func proxyOutOfRange() async {
      // Each runs in a process of its own, in every build: nothing is
      // dropped in silence.
      let insertion = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.tags = ["a"]
        person.mutableArrayValue(for: \.tags).insert("x", at: 5)
      }
      let replacement = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.tags = ["a", "b"]
        person.mutableArrayValue(for: \.tags).replaceSubrange(1..<4, with: ["z"])
      }
      let assignment = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.mutableArrayValue(for: \.tags)[3] = "y"
      }
      let removal = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.mutableArrayValue(for: \.tags).removeLast()
      }
      let messages = [insertion, replacement, assignment, removal].map { result in
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
      }
      #expect(messages[0].contains(#"mutableArrayValue(for: \Person.tags): index 5 is out of range for 1 element"#))
      #expect(messages[1].contains(#"mutableArrayValue(for: \Person.tags): range 1..<4 is out of range for 2 elements"#))
      #expect(messages[2].contains(#"mutableArrayValue(for: \Person.tags): index 3 is out of range for 0 elements"#))
      #expect(messages[3].contains(#"mutableArrayValue(for: \Person.tags): removeLast() on an empty array"#))
    }
  #endif

  @Test("a change record equals one built from the same positions, however its positions were written")
  func changeRecordsCompareByIndexes() {
    let person = Person()
    person.tags = ["a", "b", "c"]
    let received = Recorder<KeyValueObservedChange<[String]>>()
    let token = person.observe(\.tags, options: [.old, .new]) { _, change in received.append(change) }
    let tags = person.mutableArrayValue(for: \.tags)
    // Two adjacent positions, which an index set holds as one range.
    tags.swapAt(0, 1)
    #expect(
      received.elements == [
        KeyValueObservedChange(kind: .replacement, newValue: ["b", "a"], oldValue: ["a", "b"], indexes: [0..<2])
      ])
    withExtendedLifetime(token) {}
  }

  @Test("indexes beyond 32 bits reach the observer as they were given")
  func indexesBeyondThirtyTwoBits() {
    let person = Person()
    let (changes, token) = record(person, \.tags)
    let far = 3_000_000_000..<3_000_000_002
    let diagnostics = capturingDiagnostics {
      person.withChange(.replacement, valuesAt: [far], for: \.tags) {}
    }
    #expect(diagnostics.map(\.kind) == [.indexesOutOfRange, .indexesOutOfRange])
    #expect(changes.elements == [CollectionChange(.replacement, [far], old: [], new: [])])
    withExtendedLifetime(token) {}
  }

  @Test("a key computed from the collection is notified once per proxy call, as a setting")
  func dependentKey() {
    let team = Team()
    let (headcounts, token) = record(team, \.headcount, options: [.old, .new])
    team.mutableSetValue(for: \.memberIDs).formUnion([1, 2])
    team.mutableSetValue(for: \.memberIDs).remove(1)
    #expect(
      headcounts.elements == [
        CollectionChange(.setting, nil, old: 0, new: 2),
        CollectionChange(.setting, nil, old: 2, new: 1),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("mutating the array directly is in place when its key is unobserved or inside a manual change")
  func inPlace() {
    let person = Person()
    person.tags.reserveCapacity(64)
    func buffer() -> UnsafeRawPointer? { person.tags.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    let before = buffer()
    let (names, other) = record(person, \.name)
    person.tags.append("another key of the object is observed, this one is not")
    #expect(buffer() == before)

    let (changes, token) = record(person, \.tags)
    person.willChange(.insertion, valuesAt: [1..<11], for: \.tags)
    for index in 0..<10 { person.tags.append("\(index)") }
    person.didChange(.insertion, valuesAt: [1..<11], for: \.tags)
    #expect(buffer() == before, "the manual change notifies: the accessor hands out the storage itself")
    #expect(changes.elements == [CollectionChange(.insertion, [1..<11], new: (0..<10).map { "\($0)" })])
    #expect(names.count == 0)
    withExtendedLifetime((token, other)) {}
  }

  @Test("an object nobody observes is still written through")
  func unobserved() {
    let person = Person()
    let tags = person.mutableArrayValue(for: \.tags)
    tags.append(contentsOf: ["a", "b", "c"])
    tags.removeFirst()
    tags.removeLast()
    #expect(person.tags == ["b"])
    #expect(Array(tags) == ["b"])
    #expect(tags.count == 1)
  }

  @Test("a proxy made by init() holds its own array, as generic code expects")
  func detached() {
    let scratch = KeyValueMutableArray<Person, String>()
    scratch.append(contentsOf: ["b", "a"])
    scratch.insert("c", at: 0)
    #expect(Array(scratch) == ["c", "b", "a"])
    #expect(scratch.array == ["c", "b", "a"])
  }

  @Test("set proxy: insert and union notify an insertion of only the elements added, without indexes")
  func setInsertion() {
    let team = Team()
    team.memberIDs = [1]
    let (changes, token) = record(team, \.memberIDs)
    let ids = team.mutableSetValue(for: \.memberIDs)
    #expect(ids.insert(2).inserted)
    #expect(!ids.insert(2).inserted)
    ids.formUnion([1, 3, 4])
    #expect(team.memberIDs == [1, 2, 3, 4])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, nil, new: [2]),
        CollectionChange(.insertion, nil, new: []),
        CollectionChange(.insertion, nil, new: [3, 4]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("set proxy: remove, subtract, intersection and removeAll notify a removal of only the elements dropped")
  func setRemoval() {
    let team = Team()
    team.memberIDs = [1, 2, 3, 4, 5]
    let (changes, token) = record(team, \.memberIDs)
    let ids = team.mutableSetValue(for: \.memberIDs)
    #expect(ids.remove(1) == 1)
    ids.subtract([2, 9])
    ids.formIntersection([3, 4])
    #expect(ids.contains(3) && !ids.contains(5))
    ids.removeAll()
    #expect(ids.isEmpty)
    #expect(
      changes.elements == [
        CollectionChange(.removal, nil, old: [1]),
        CollectionChange(.removal, nil, old: [2]),
        CollectionChange(.removal, nil, old: [5]),
        CollectionChange(.removal, nil, old: [3, 4]),
      ])
    withExtendedLifetime(token) {}
  }
}
