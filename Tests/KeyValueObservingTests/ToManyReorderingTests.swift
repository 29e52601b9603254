import KeyValueObserving
import PropertyBased
import Testing

/// An item of a reordered list: an object, so that an element seen twice is the
/// same object twice.
@KeyValueObservable
final class ReorderedItem {
  var text: String

  init(_ text: String) {
    self.text = text
  }
}

/// An element that remembers the position it started at, so that a test
/// can tell which elements moved even when their values are equal.
struct Placed: Equatable, Sendable, CustomStringConvertible {
  var value: Int
  var origin: Int

  var description: String { "\(value)@\(origin)" }
}

/// A list of items, and a list of placed values, with a property whose
/// own `didSet` counts its assignments.
@KeyValueObservable
final class ReorderedList {
  var items: [ReorderedItem] = []
  var values: [Placed] = []
  var didSetCount = 0
  var counted: [Int] = [] {
    didSet { didSetCount += 1 }
  }
}

/// An observer of `list.items` that checks, in each of its callbacks,
/// that the array holds no item twice, and counts the callbacks.
private final class DuplicateWatch: @unchecked Sendable {
  private(set) var callbacks = 0
  private(set) var duplicatesSeen = 0
  private var token: KeyValueObservation?

  init(_ list: ReorderedList) {
    token = list.observe(\.items, options: [.prior, .old, .new]) { [unowned self] list, _ in
      callbacks += 1
      let items = list.items
      if Set(items.map(ObjectIdentifier.init)).count != items.count { duplicatesSeen += 1 }
    }
  }
}

/// A generator whose state is made from `seed` by SplitMix64, so that
/// small seeds give well-mixed numbers from the first draw (Xoshiro seeded
/// with small words draws numbers near zero at first).
func mixedGenerator(seed: UInt64) -> Xoshiro {
  var word = seed
  func next() -> UInt64 {
    word &+= 0x9E37_79B9_7F4A_7C15
    var mixed = word
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
  return Xoshiro(seed: (next(), next(), next(), next()))
}

/// One bulk operation on an array, as the randomised test draws it.
enum Reordering: CustomStringConvertible, Sendable {
  case sort
  case sortDescending
  case reverse
  case shuffle(seed: UInt64)
  case move(offsets: [Range<Int>], destination: Int)

  /// The operation `selector` and `seed` name, for an array of `count`
  /// elements.
  init(selector: Int, seed: UInt64, count: Int) {
    var generator = mixedGenerator(seed: ~seed)
    switch selector {
    case 0: self = .sort
    case 1: self = .sortDescending
    case 2: self = .reverse
    case 3: self = .shuffle(seed: seed)
    default:
      let positions = (0..<count).filter { _ in Bool.random(using: &generator) }
      self = .move(offsets: positions.map { $0..<$0 + 1 }, destination: Int.random(in: 0...count, using: &generator))
    }
  }

  /// Makes the operation through the proxy.
  func run(on proxy: KeyValueMutableArray<ReorderedList, Placed>) {
    switch self {
    case .sort: proxy.sort { $0.value < $1.value }
    case .sortDescending: proxy.sort { $0.value > $1.value }
    case .reverse: proxy.reverse()
    case .shuffle(let seed):
      var generator = mixedGenerator(seed: seed)
      proxy.shuffle(using: &generator)
    case .move(let offsets, let destination):
      proxy.move(fromOffsets: KeyValueIndexSet(offsets), toOffset: destination)
    }
  }

  /// What the operation makes of `array`, worked out with `Array`'s own
  /// methods (and, for a move, by removing and inserting).
  func expected(from array: [Placed]) -> [Placed] {
    var result = array
    switch self {
    case .sort: result.sort { $0.value < $1.value }
    case .sortDescending: result.sort { $0.value > $1.value }
    case .reverse: result.reverse()
    case .shuffle(let seed):
      var generator = mixedGenerator(seed: seed)
      result.shuffle(using: &generator)
    case .move(let offsets, let destination):
      let positions = offsets.flatMap { $0 }
      let moving = positions.map { array[$0] }
      for position in positions.reversed() { result.remove(at: position) }
      result.insert(contentsOf: moving, at: destination - positions.filter { $0 < destination }.count)
    }
    return result
  }

  var description: String {
    switch self {
    case .sort: "sort"
    case .sortDescending: "sort descending"
    case .reverse: "reverse"
    case .shuffle(let seed): "shuffle(seed: \(seed))"
    case .move(let offsets, let destination): "move(fromOffsets: \(offsets), toOffset: \(destination))"
    }
  }
}

/// How many random cases the randomised test checks: `KVO_MODEL_RUNS` for
/// a long local run.
private let caseCount = Int(ProcessInfoLite.environment("KVO_MODEL_RUNS") ?? "") ?? 1_000

@Suite("To-many: sorting, reversing, shuffling and moving through the array proxy notify once")
struct ToManyReorderingTests {
  @Test("sort() is one replacement at the positions whose element changed, with their old and new elements")
  func sortIsOneReplacement() {
    let person = Person()
    person.tags = ["d", "b", "c", "a", "e"]
    let (changes, token) = record(person, \.tags, options: [.prior, .old, .new])
    person.mutableArrayValue(for: \.tags).sort()
    #expect(person.tags == ["a", "b", "c", "d", "e"])
    #expect(
      changes.elements == [
        CollectionChange(.replacement, [0..<1, 3..<4], old: ["d", "a"], isPrior: true),
        CollectionChange(.replacement, [0..<1, 3..<4], old: ["d", "a"], new: ["a", "d"]),
      ], "b, c and e stay where they were and are not notified")
    withExtendedLifetime(token) {}
  }

  @Test("sort(by:) is stable: equal elements keep their places and are not notified")
  func sortByIsStable() {
    let person = Person()
    person.tags = ["bb", "a", "cc", "d"]
    let (changes, token) = record(person, \.tags)
    person.mutableArrayValue(for: \.tags).sort { $0.count < $1.count }
    #expect(person.tags == ["a", "d", "bb", "cc"])
    #expect(changes.elements == [CollectionChange(.replacement, [0..<4], old: ["bb", "a", "cc", "d"], new: ["a", "d", "bb", "cc"])])
    person.mutableArrayValue(for: \.tags).sort { $0.count < $1.count }
    #expect(changes.count == 1, "sorting a sorted array changes nothing and notifies nothing")
    withExtendedLifetime(token) {}
  }

  @Test("a comparator that throws leaves the array as it was and notifies nothing")
  func throwingComparator() {
    struct Refused: Error {}
    let person = Person()
    person.tags = ["c", "b", "a"]
    let (changes, token) = record(person, \.tags)
    #expect(throws: Refused.self) {
      try person.mutableArrayValue(for: \.tags).sort { _, _ in throw Refused() }
    }
    #expect(person.tags == ["c", "b", "a"])
    #expect(changes.count == 0)
    withExtendedLifetime(token) {}
  }

  @Test("reverse() is one replacement that leaves out the middle of an odd count; fewer than two elements notify nothing")
  func reverse() {
    let person = Person()
    let (changes, token) = record(person, \.tags)
    let tags = person.mutableArrayValue(for: \.tags)
    tags.reverse()
    tags.append("a")
    tags.reverse()
    tags.append(contentsOf: ["b", "c"])
    tags.reverse()
    #expect(person.tags == ["c", "b", "a"])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [0..<1], new: ["a"]),
        CollectionChange(.insertion, [1..<3], new: ["b", "c"]),
        CollectionChange(.replacement, [0..<1, 2..<3], old: ["a", "c"], new: ["c", "a"]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("shuffle(using:) draws as Array's does and is one replacement; shuffle() is at most one")
  func shuffle() {
    let person = Person()
    let tags = (0..<20).map { "\($0)" }
    person.tags = tags
    let (changes, token) = record(person, \.tags)
    var generator = mixedGenerator(seed: 7)
    var reference = mixedGenerator(seed: 7)
    var expected = tags
    expected.shuffle(using: &reference)
    person.mutableArrayValue(for: \.tags).shuffle(using: &generator)
    #expect(person.tags == expected)
    #expect(generator == reference, "the proxy drew as many numbers as Array's shuffle")
    let moved = (0..<20).filter { expected[$0] != tags[$0] }
    #expect(
      changes.elements == [
        CollectionChange(
          .replacement,
          KeyValueIndexSet(moved.map { $0..<$0 + 1 }).ranges,
          old: moved.map { tags[$0] },
          new: moved.map { expected[$0] }
        )
      ])
    person.mutableArrayValue(for: \.tags).shuffle()
    #expect(person.tags.sorted() == tags.sorted())
    #expect(changes.count <= 2)
    withExtendedLifetime(token) {}
  }

  @Test(
    "move(fromOffsets:toOffset:) puts the elements before the one at the offset, as SwiftUI's does, in one replacement",
    arguments: [
      // (offsets, destination, result, changed positions)
      ([0..<1], 3, "bcad", [0..<3]),
      ([0..<1], 4, "bcda", [0..<4]),
      ([3..<4], 0, "dabc", [0..<4]),
      ([0..<2, 3..<4], 3, "cabd", [0..<3]),
      ([1..<3], 0, "bcad", [0..<3]),
      ([1..<3], 4, "adbc", [1..<4]),
    ] as [([Range<Int>], Int, String, [Range<Int>])]
  )
  func move(offsets: [Range<Int>], destination: Int, result: String, changed: [Range<Int>]) {
    let person = Person()
    person.tags = ["a", "b", "c", "d"]
    let (changes, token) = record(person, \.tags)
    person.mutableArrayValue(for: \.tags).move(fromOffsets: KeyValueIndexSet(offsets), toOffset: destination)
    let expected = result.map(String.init)
    #expect(person.tags == expected)
    let positions = changed.flatMap { $0 }
    #expect(
      changes.elements == [
        CollectionChange(.replacement, changed, old: positions.map { ["a", "b", "c", "d"][$0] }, new: positions.map { expected[$0] })
      ])
    withExtendedLifetime(token) {}
  }

  @Test(
    "an operation that leaves every element where it was notifies nothing and calls no setter",
    arguments: ["sort", "sort(by:)", "reverse one", "move onto itself", "move nothing", "shuffle empty"]
  )
  func identityNotifiesNothing(operation: String) {
    let list = ReorderedList()
    list.counted = operation.hasSuffix("one") ? [1] : operation.hasSuffix("empty") ? [] : [1, 2, 3]
    let assignments = list.didSetCount
    let (changes, token) = record(list, \.counted, options: [.prior, .old, .new])
    let proxy = list.mutableArrayValue(for: \.counted)
    switch operation {
    case "sort": proxy.sort()
    case "sort(by:)": proxy.sort { _, _ in false }
    case "reverse one": proxy.reverse()
    case "move onto itself": proxy.move(fromOffsets: [1..<2], toOffset: 2)
    case "move nothing": proxy.move(fromOffsets: [], toOffset: 0)
    default: proxy.shuffle()
    }
    #expect(changes.count == 0)
    #expect(list.didSetCount == assignments, "the property was not assigned")
    withExtendedLifetime(token) {}
  }

  @Test("an observer never sees an item twice while the proxy sorts, reverses, shuffles or moves objects")
  func noDuplicateSeen() {
    let list = ReorderedList()
    list.items = ["e", "c", "a", "d", "b"].map(ReorderedItem.init)
    let watch = DuplicateWatch(list)
    let proxy = list.mutableArrayValue(for: \.items)
    proxy.sort { $0.text < $1.text }
    #expect(list.items.map(\.text) == ["a", "b", "c", "d", "e"])
    proxy.reverse()
    var generator = mixedGenerator(seed: 1)
    proxy.shuffle(using: &generator)
    #expect(list.items.map(\.text) != ["e", "d", "c", "b", "a"], "this seed moves something")
    proxy.move(fromOffsets: [0..<2], toOffset: 5)
    #expect(watch.callbacks == 8, "a prior and a did callback for each operation")
    #expect(watch.duplicatesSeen == 0)
  }

  @Test("a tracked closure and the property's own didSet run once for a sort")
  func trackedClosureRunsOnce() {
    let list = ReorderedList()
    list.counted = [3, 1, 2]
    let runs = Recorder<[Int]>()
    let token = withKeyValueObservation { runs.append(list.counted) }
    let assignments = list.didSetCount
    list.mutableArrayValue(for: \.counted).sort()
    #expect(runs.elements == [[3, 1, 2], [1, 2, 3]])
    #expect(list.didSetCount == assignments + 1)
    withExtendedLifetime(token) {}
  }

  @Test("a class Swift Observation tracks hears one mutation for a sort, and none for a sort that changes nothing")
  func swiftObservation() {
    let sheet = Sheet()
    sheet.rows = [2, 1]
    #expect(observationChanges(reading: { _ = sheet.rows }, after: { sheet.mutableArrayValue(for: \.rows).sort() }) == 1)
    #expect(sheet.rows == [1, 2])
    #expect(observationChanges(reading: { _ = sheet.rows }, after: { sheet.mutableArrayValue(for: \.rows).sort() }) == 0)
  }

  @Test("through a property a subclass overrides with an observer, a sort is one change and one assignment, a setting as an append is")
  func overriddenProperty() {
    let list = AuditedShelf()
    list.items = [3, 1, 2]
    let didSets = list.overrideDidSet
    let (changes, token) = record(list, \.items)
    list.mutableArrayValue(for: \.items).sort()
    #expect(list.items == [1, 2, 3])
    #expect(list.overrideDidSet == didSets + 1)
    // The override's setter assigns through the superclass's, a change
    // that folds into the proxy's: the record is a setting, as it is for
    // any proxy call there.
    #expect(changes.elements == [CollectionChange(.setting, nil, old: [3, 1, 2], new: [1, 2, 3])])
    list.mutableArrayValue(for: \.items).append(4)
    #expect(changes.elements.last == CollectionChange(.setting, nil, old: [1, 2, 3], new: [1, 2, 3, 4]))
    withExtendedLifetime(token) {}
  }

  @Test("a classic observer receives the replacement's kind, indexes and elements")
  func classicObserver() throws {
    let person = Person()
    person.tags = ["b", "a"]
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "tags", options: [.old, .new])
    person.mutableArrayValue(for: \.tags).sort()
    let change = try #require(log.last)
    #expect(log.calls.count == 1)
    #expect(change.kind == .replacement)
    #expect((change.change[.indexes] as? KeyValueIndexSet)?.ranges == [0..<2])
    #expect(change.change[.old] as? [String] == ["b", "a"])
    #expect(change.change[.new] as? [String] == ["a", "b"])
  }

  @Test("a list changed in a prior callback of a sort: the did record is a setting, and replaying it gives the list")
  func changedInPrior() {
    let list = ReorderedList()
    list.counted = [3, 2, 1]
    var pending = true
    let writer = list.observe(\.counted, options: .prior) { list, change in
      guard change.isPrior, pending else { return }
      pending = false
      list.counted.append(9)
    }
    let (changes, token) = record(list, \.counted, options: [.prior, .old, .new])
    var mirror = ReplayingMirror(list.counted)
    let replay = list.observe(\.counted, options: [.old, .new]) { _, change in mirror.apply(change) }
    list.mutableArrayValue(for: \.counted).sort()
    #expect(list.counted == [1, 2, 3, 9], "the order worked out when the call began, applied to the list as it is")
    #expect(
      changes.elements == [
        CollectionChange(.replacement, [0..<1, 2..<3], old: [3, 1], isPrior: true),
        CollectionChange(.setting, nil, old: [3, 2, 1], new: [1, 2, 3, 9]),
      ])
    #expect(mirror.value == list.counted)
    withExtendedLifetime((writer, token, replay)) {}
  }

  @Test("generic code reaches swapAt: each swap is one replacement of two positions, never an element twice")
  func genericCodeSwaps() {
    func reverseGenerically<C: MutableCollection & BidirectionalCollection>(_ collection: inout C) {
      collection.reverse()
    }
    let list = ReorderedList()
    list.items = ["a", "b", "c", "d"].map(ReorderedItem.init)
    let watch = DuplicateWatch(list)
    let changes = Recorder<CollectionChange<Int>>()
    let token = list.observe(\.items, options: []) { _, change in
      changes.append(CollectionChange(change.kind, change.indexes?.ranges))
    }
    var proxy = list.mutableArrayValue(for: \.items)
    reverseGenerically(&proxy)
    #expect(list.items.map(\.text) == ["d", "c", "b", "a"])
    #expect(changes.elements == [CollectionChange(.replacement, [0..<1, 3..<4]), CollectionChange(.replacement, [1..<3])])
    #expect(watch.duplicatesSeen == 0)
    withExtendedLifetime(token) {}
  }

  @Test("a proxy made by init() sorts, reverses, shuffles and moves its own array")
  func detached() {
    let scratch = KeyValueMutableArray<Person, Int>()
    scratch.append(contentsOf: [3, 1, 2])
    scratch.sort()
    #expect(scratch.array == [1, 2, 3])
    scratch.reverse()
    #expect(scratch.array == [3, 2, 1])
    scratch.move(fromOffsets: [0..<1], toOffset: 3)
    #expect(scratch.array == [2, 1, 3])
    scratch.shuffle()
    #expect(scratch.array.sorted() == [1, 2, 3])
  }

  // Exit tests run where a test can start a process: not on iOS, tvOS,
  // watchOS or visionOS.
  #if os(macOS) || os(Linux) || os(Windows)
    @Test("a move from or to an offset outside the array stops the program, naming the key and the count")
    func moveOutOfRange() async {
      let source = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.tags = ["a", "b"]
        person.mutableArrayValue(for: \.tags).move(fromOffsets: [1..<3], toOffset: 0)
      }
      let destination = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.tags = ["a", "b"]
        person.mutableArrayValue(for: \.tags).move(fromOffsets: [0..<1], toOffset: 3)
      }
      let shortened = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let person = Person()
        person.tags = ["b", "a"]
        let token = person.observe(\.tags, options: .prior) { person, change in
          if change.isPrior { person.tags = [] }
        }
        person.mutableArrayValue(for: \.tags).sort()
        withExtendedLifetime(token) {}
      }
      let messages = [source, destination, shortened].map { result in
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
      }
      #expect(messages[0].contains(#"mutableArrayValue(for: \Person.tags): offsets [1..<3] are out of range for 2 elements"#))
      #expect(messages[1].contains(#"mutableArrayValue(for: \Person.tags): offset 3 is out of range for 2 elements"#))
      #expect(
        messages[2].contains(
          #"mutableArrayValue(for: \Person.tags): index 1, which sort() moves, is out of range for 0 elements"#
        ))
    }
  #endif

  @Test("random arrays and operations: one replacement at exactly the moved positions, which applied to the old array gives the new")
  func randomised() async {
    await propertyCheck(
      count: caseCount,
      input: Gen.int(in: 0...3).array(of: 0...12),
      Gen.int(in: 0...4),
      Gen.uint64()
    ) { values, selector, seed in
      let list = ReorderedList()
      let before = values.enumerated().map { Placed(value: $1, origin: $0) }
      list.values = before
      let operation = Reordering(selector: selector, seed: seed, count: before.count)
      let expected = operation.expected(from: before)
      let received = Recorder<KeyValueObservedChange<[Placed]>>()
      var mirror = ReplayingMirror(before)
      var duplicatesSeen = 0
      let token = list.observe(\.values, options: [.prior, .old, .new]) { list, change in
        received.append(change)
        if !change.isPrior { mirror.apply(change) }
        if Set(list.values.map(\.origin)).count != list.values.count { duplicatesSeen += 1 }
      }
      operation.run(on: list.mutableArrayValue(for: \.values))
      withExtendedLifetime(token) {}

      let context = "\(operation) on \(before)"
      #expect(list.values == expected, "\(context)")
      let moved = expected.indices.filter { expected[$0].origin != $0 }
      let records = received.elements
      #expect(duplicatesSeen == 0, "\(context)")
      guard !moved.isEmpty else {
        #expect(records.isEmpty, "nothing moved, nothing is notified: \(context)")
        return
      }
      #expect(records.count == 2, "one prior and one did record: \(context)")
      guard let did = records.last else { return }
      #expect(did.kind == .replacement, "\(context)")
      #expect(did.indexes.map(Array.init) == moved, "exactly the positions whose element changed: \(context)")
      #expect(did.oldValue == moved.map { before[$0] }, "\(context)")
      #expect(did.newValue == moved.map { expected[$0] }, "\(context)")
      #expect(mirror.value == expected, "the record applied to the old array gives the new one: \(context)")
    }
  }
}
