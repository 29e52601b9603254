import KeyValueObserving
import PropertyBased
import Testing

/// A model with a key of each kind a change record applies to, and keys
/// it cannot apply to.
@KeyValueObservable
final class ChangeTarget {
  var title = ""
  var note: String?
  var lines: [String] = []
  var numbers: [Int] = []
  var ids: Set<Int> = []
  var count = 0
  let serial = 7
  var summary: String { title }

  init() {}

  init(lines: [String]) {
    self.lines = lines
  }
}

/// Records every change of `keyPath` of `object`, as the typed record.
private func changes<Value>(
  of object: ChangeTarget,
  _ keyPath: KeyPath<ChangeTarget, Value>,
  options: KeyValueObservingOptions = [.old, .new]
) -> (Recorder<UncheckedRecord<Value>>, KeyValueObservation) {
  let recorder = Recorder<UncheckedRecord<Value>>()
  let token = object.observe(keyPath, options: options) { _, change in recorder.append(UncheckedRecord(change)) }
  return (recorder, token)
}

/// A change record the recorder may hold whatever its value type.
private struct UncheckedRecord<Value>: @unchecked Sendable {
  let change: KeyValueObservedChange<Value>
  init(_ change: KeyValueObservedChange<Value>) { self.change = change }
}

private func collection<Value: Equatable>(_ records: [UncheckedRecord<Value>]) -> [CollectionChange<Value>] where Value: Sendable {
  records.map { CollectionChange($0.change) }
}

@Suite("Applying a change record, and its inverse")
struct ApplyChangeTests {
  // MARK: Settings

  @Test("a setting assigns its new value, notified as a setting; its inverse puts the old one back")
  func setting() throws {
    let target = ChangeTarget()
    let (seen, token) = changes(of: target, \.title)
    let change = KeyValueObservedChange(kind: .setting, newValue: "Groceries", oldValue: "")
    try target.apply(change, to: \.title)
    #expect(target.title == "Groceries")
    try target.apply(change.inverse, to: \.title)
    #expect(target.title == "")
    #expect(
      collection(seen.elements) == [
        CollectionChange(.setting, nil, old: "", new: "Groceries"),
        CollectionChange(.setting, nil, old: "Groceries", new: ""),
      ])
    #expect(change.inverse.inverse == change)
    withExtendedLifetime(token) {}
  }

  @Test("an optional property's setting keeps nil apart from absent: nil is assigned, and put back")
  func optionalSetting() throws {
    let target = ChangeTarget()
    var recorded: [KeyValueObservedChange<String?>] = []
    let token = target.observe(\.note, options: [.old, .new]) { _, change in recorded.append(change) }
    target.note = "remember"
    target.note = nil
    token.invalidate()
    #expect(recorded.count == 2)
    try target.apply(recorded[1].inverse, to: \.note)
    #expect(target.note == "remember")
    try target.apply(recorded[0].inverse, to: \.note)
    #expect(target.note == nil)
    try target.apply(recorded[0], to: \.note)
    try target.apply(recorded[1], to: \.note)
    #expect(target.note == nil)
  }

  // MARK: Arrays

  @Test(
    "an array insertion puts its elements at the record's indexes, which are positions after it; the inverse takes them out",
    arguments: [
      // (start, indexes, new elements, result)
      ("abc", [0..<1], "x", "xabc"),
      ("abc", [3..<4], "x", "abcx"),
      ("abc", [0..<1, 3..<5], "xyz", "xabyzc"),
      ("abc", [1..<3, 4..<5, 6..<7], "wxyz", "awxbycz"),
      ("", [0..<2], "xy", "xy"),
    ] as [(String, [Range<Int>], String, String)]
  )
  func arrayInsertion(start: String, indexes: [Range<Int>], new: String, result: String) throws {
    let target = ChangeTarget(lines: start.map(String.init))
    let (seen, token) = changes(of: target, \.lines)
    let change = KeyValueObservedChange(kind: .insertion, newValue: new.map(String.init), indexes: KeyValueIndexSet(indexes))
    try target.apply(change, to: \.lines)
    #expect(target.lines.joined() == result)
    #expect(collection(seen.elements) == [CollectionChange(.insertion, indexes, old: nil, new: new.map(String.init))])
    try target.apply(change.inverse, to: \.lines)
    #expect(target.lines.joined() == start)
    #expect(collection(seen.elements).last == CollectionChange(.removal, indexes, old: new.map(String.init), new: nil))
    withExtendedLifetime(token) {}
  }

  @Test(
    "an array removal takes out the elements at its indexes, positions before it; the inverse puts them back",
    arguments: [
      ("abcde", [0..<1], "bcde"),
      ("abcde", [4..<5], "abcd"),
      ("abcde", [0..<1, 2..<4], "be"),
      ("abcde", [0..<5], ""),
    ] as [(String, [Range<Int>], String)]
  )
  func arrayRemoval(start: String, indexes: [Range<Int>], result: String) throws {
    let target = ChangeTarget(lines: start.map(String.init))
    var recorded: [KeyValueObservedChange<[String]>] = []
    let token = target.observe(\.lines, options: [.old, .new]) { _, change in recorded.append(change) }
    let removed = indexes.flatMap { $0 }.map { start.map(String.init)[$0] }
    try target.apply(KeyValueObservedChange(kind: .removal, indexes: KeyValueIndexSet(indexes)), to: \.lines)
    #expect(target.lines.joined() == result)
    // The record observers got carries the removed elements: its inverse
    // puts them back.
    #expect(recorded.map(CollectionChange.init) == [CollectionChange(.removal, indexes, old: removed)])
    try target.apply(recorded[0].inverse, to: \.lines)
    #expect(target.lines.joined() == start)
    #expect(recorded.count == 2)
    #expect(recorded[1].kind == .insertion && recorded[1].newValue == removed)
    withExtendedLifetime(token) {}
  }

  @Test(
    "an array replacement puts its new elements at its indexes; the inverse restores the old ones",
    arguments: [
      ("abcde", [1..<2], "X", "aXcde"),
      ("abcde", [0..<2, 3..<4], "XYZ", "XYcZe"),
      ("abcde", [0..<5], "VWXYZ", "VWXYZ"),
    ] as [(String, [Range<Int>], String, String)]
  )
  func arrayReplacement(start: String, indexes: [Range<Int>], new: String, result: String) throws {
    let target = ChangeTarget(lines: start.map(String.init))
    let (seen, token) = changes(of: target, \.lines)
    let old = indexes.flatMap { $0 }.map { start.map(String.init)[$0] }
    let change = KeyValueObservedChange(
      kind: .replacement, newValue: new.map(String.init), oldValue: old, indexes: KeyValueIndexSet(indexes)
    )
    try target.apply(change, to: \.lines)
    #expect(target.lines.joined() == result)
    try target.apply(change.inverse, to: \.lines)
    #expect(target.lines.joined() == start)
    #expect(
      collection(seen.elements) == [
        CollectionChange(.replacement, indexes, old: old, new: new.map(String.init)),
        CollectionChange(.replacement, indexes, old: new.map(String.init), new: old),
      ])
    #expect(change.inverse.inverse == change)
    withExtendedLifetime(token) {}
  }

  @Test("the records a proxy's sort, move and removeAll(where:) send undo in reverse and replay on a replica")
  func proxyRecordsReplay() throws {
    let target = ChangeTarget(lines: ["d", "a", "c", "b", "e"])
    let replica = ChangeTarget(lines: target.lines)
    var recorded: [KeyValueObservedChange<[String]>] = []
    var states: [[String]] = [target.lines]
    let token = target.observe(\.lines, options: [.old, .new]) { target, change in
      recorded.append(change)
      states.append(target.lines)
    }
    let proxy = target.mutableArrayValue(for: \.lines)
    proxy.sort()
    proxy.move(fromOffsets: [0..<1, 3..<4], toOffset: 3)
    proxy.removeAll { $0 == "a" || $0 == "c" }
    proxy.insert(contentsOf: ["x", "y"], at: 1)
    proxy[0] = "z"
    token.invalidate()
    #expect(recorded.count == 5)
    for change in recorded { try replica.apply(change, to: \.lines) }
    #expect(replica.lines == target.lines)
    for (index, change) in recorded.enumerated().reversed() {
      try target.apply(change.inverse, to: \.lines)
      #expect(target.lines == states[index], "undoing \(change)")
    }
  }

  // MARK: Sets

  @Test("a set's insertion, removal and replacement apply by their elements, and their inverses undo them")
  func sets() throws {
    let target = ChangeTarget()
    target.ids = [1, 2, 3]
    let replica = ChangeTarget()
    replica.ids = target.ids
    var recorded: [KeyValueObservedChange<Set<Int>>] = []
    var states: [Set<Int>] = [target.ids]
    let token = target.observe(\.ids, options: [.old, .new]) { target, change in
      recorded.append(change)
      states.append(target.ids)
    }
    let proxy = target.mutableSetValue(for: \.ids)
    proxy.formUnion([3, 4, 5])
    proxy.subtract([1, 9])
    proxy.replaceAll(with: [2, 5, 6])
    proxy.formIntersection([5, 6])
    token.invalidate()
    #expect(recorded.map(\.kind) == [.insertion, .removal, .replacement, .removal])
    for change in recorded { try replica.apply(change, to: \.ids) }
    #expect(replica.ids == target.ids)
    for (index, change) in recorded.enumerated().reversed() {
      try target.apply(change.inverse, to: \.ids)
      #expect(target.ids == states[index], "undoing \(change)")
      #expect(change.inverse.inverse == change)
    }
  }

  @Test("applying a set change notifies one change of its kind, with the elements it changed")
  func setNotifications() throws {
    let target = ChangeTarget()
    target.ids = [1, 2]
    let (seen, token) = changes(of: target, \.ids)
    try target.apply(KeyValueObservedChange(kind: .insertion, newValue: [3]), to: \.ids)
    try target.apply(KeyValueObservedChange(kind: .removal, oldValue: [1]), to: \.ids)
    try target.apply(KeyValueObservedChange(kind: .replacement, newValue: [4], oldValue: [2]), to: \.ids)
    #expect(target.ids == [3, 4])
    #expect(
      collection(seen.elements) == [
        CollectionChange(.insertion, nil, new: [3]),
        CollectionChange(.removal, nil, old: [1]),
        CollectionChange(.replacement, nil, old: [2], new: [4]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("a record with no indexes or no elements to apply changes nothing and notifies nothing")
  func emptyRecords() throws {
    let target = ChangeTarget(lines: ["a"])
    target.ids = [1]
    let (lines, linesToken) = changes(of: target, \.lines, options: [.prior, .old, .new])
    let (ids, idsToken) = changes(of: target, \.ids, options: [.prior, .old, .new])
    try target.apply(KeyValueObservedChange(kind: .insertion, newValue: [], indexes: []), to: \.lines)
    try target.apply(KeyValueObservedChange(kind: .removal, indexes: []), to: \.lines)
    try target.apply(KeyValueObservedChange(kind: .replacement, newValue: [], oldValue: [], indexes: []), to: \.lines)
    try target.apply(KeyValueObservedChange(kind: .insertion, newValue: []), to: \.ids)
    try target.apply(KeyValueObservedChange(kind: .removal, oldValue: []), to: \.ids)
    try target.apply(KeyValueObservedChange(kind: .replacement, newValue: [], oldValue: []), to: \.ids)
    #expect(target.lines == ["a"] && target.ids == [1])
    #expect(lines.count == 0 && ids.count == 0)
    withExtendedLifetime((linesToken, idsToken)) {}
  }

  // MARK: Errors

  @Test("a record that cannot be applied throws what is wrong, and changes and notifies nothing")
  func typedErrors() {
    let target = ChangeTarget(lines: ["a", "b"])
    target.ids = [1]
    target.title = "kept"
    let (lines, linesToken) = changes(of: target, \.lines, options: [.prior, .old, .new])
    let (ids, idsToken) = changes(of: target, \.ids, options: [.prior, .old, .new])
    let (titles, titleToken) = changes(of: target, \.title, options: [.prior, .old, .new])
    let (counts, countToken) = changes(of: target, \.count, options: [.prior, .old, .new])

    #expect(throws: KeyValueCodingError.incompleteChange(key: "title", type: "ChangeTarget", kind: .setting, missing: .new)) {
      try target.apply(KeyValueObservedChange(kind: .setting, oldValue: "kept"), to: \.title)
    }
    #expect(throws: KeyValueCodingError.incompleteChange(key: "lines", type: "ChangeTarget", kind: .insertion, missing: .indexes)) {
      try target.apply(KeyValueObservedChange(kind: .insertion, newValue: ["x"]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.incompleteChange(key: "lines", type: "ChangeTarget", kind: .insertion, missing: .new)) {
      try target.apply(KeyValueObservedChange(kind: .insertion, indexes: [0..<1]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.incompleteChange(key: "lines", type: "ChangeTarget", kind: .replacement, missing: .new)) {
      try target.apply(KeyValueObservedChange(kind: .replacement, oldValue: ["a"], indexes: [0..<1]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.incompleteChange(key: "ids", type: "ChangeTarget", kind: .removal, missing: .old)) {
      try target.apply(KeyValueObservedChange(kind: .removal, newValue: [1]), to: \.ids)
    }
    #expect(throws: KeyValueCodingError.incompleteChange(key: "ids", type: "ChangeTarget", kind: .insertion, missing: .new)) {
      try target.apply(KeyValueObservedChange(kind: .insertion, oldValue: [1]), to: \.ids)
    }
    #expect(throws: KeyValueCodingError.incompleteChange(key: "ids", type: "ChangeTarget", kind: .replacement, missing: .old)) {
      try target.apply(KeyValueObservedChange(kind: .replacement, newValue: [2]), to: \.ids)
    }
    #expect(throws: KeyValueCodingError.indexesOutOfRange(key: "lines", type: "ChangeTarget", indexes: [2..<3], count: 2)) {
      try target.apply(KeyValueObservedChange(kind: .removal, indexes: [2..<3]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.indexesOutOfRange(key: "lines", type: "ChangeTarget", indexes: [0..<1, 3..<4], count: 2)) {
      try target.apply(KeyValueObservedChange(kind: .replacement, newValue: ["x", "y"], oldValue: ["a", "?"], indexes: [0..<1, 3..<4]), to: \.lines)
    }
    // An insertion's indexes are positions after it: 2 elements into 2
    // reach position 3 at most.
    #expect(throws: KeyValueCodingError.indexesOutOfRange(key: "lines", type: "ChangeTarget", indexes: [3..<4], count: 2)) {
      try target.apply(KeyValueObservedChange(kind: .insertion, newValue: ["x"], indexes: [3..<4]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.elementCountMismatch(key: "lines", type: "ChangeTarget", indexes: [0..<1], elementCount: 2)) {
      try target.apply(KeyValueObservedChange(kind: .insertion, newValue: ["x", "y"], indexes: [0..<1]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.elementCountMismatch(key: "lines", type: "ChangeTarget", indexes: [0..<2], elementCount: 1)) {
      try target.apply(KeyValueObservedChange(kind: .replacement, newValue: ["x"], indexes: [0..<2]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.elementCountMismatch(key: "lines", type: "ChangeTarget", indexes: [0..<2], elementCount: 1)) {
      try target.apply(KeyValueObservedChange(kind: .removal, oldValue: ["a"], indexes: [0..<2]), to: \.lines)
    }
    #expect(throws: KeyValueCodingError.notACollection(key: "count", type: "ChangeTarget", kind: .insertion)) {
      try target.apply(KeyValueObservedChange(kind: .insertion, newValue: 1, indexes: [0..<1]), to: \.count)
    }
    #expect(throws: KeyValueCodingError.notACollection(key: "title", type: "ChangeTarget", kind: .removal)) {
      try target.apply(KeyValueObservedChange(kind: .removal, oldValue: "kept", indexes: [0..<1]), to: \.title)
    }

    #expect(target.lines == ["a", "b"] && target.ids == [1] && target.title == "kept" && target.count == 0)
    #expect(lines.count == 0 && ids.count == 0 && titles.count == 0 && counts.count == 0)
    withExtendedLifetime((linesToken, idsToken, titleToken, countToken)) {}
  }

  @Test("the errors read as sentences that name the class, the key and what is wrong")
  func errorMessages() {
    let target = ChangeTarget()
    do {
      try target.apply(KeyValueObservedChange(kind: .setting, oldValue: "x"), to: \.title)
      Issue.record("no error")
    } catch {
      #expect("\(error)".contains("ChangeTarget.title"))
      #expect("\(error)".contains("observe with .old"))
    }
  }

  // MARK: Erased records

  @Test("a graph's records, applied inverted in reverse, give back each state; applied again, the state after")
  func graphUndoAndRedo() throws {
    let outline = Outline()
    let milk = OutlineItem("milk")
    let eggs = OutlineItem("eggs", children: [OutlineItem("brown")])
    let red = OutlineTag("red")
    outline.items = [milk]
    var recorded: [KeyValueGraphChange] = []
    var states: [OutlineSnapshot] = [OutlineSnapshot(outline)]
    let token = outline.observeGraph { change in
      recorded.append(change)
      states.append(OutlineSnapshot(outline))
    }
    outline.title = "Groceries"
    outline.mutableArrayValue(for: \.items).append(eggs)
    milk.text = "Milk"
    milk.note = OutlineNote("note")
    milk.note?.body = "semi-skimmed"
    outline.selection = eggs
    eggs.children[0].done = true
    eggs.mutableArrayValue(for: \.children).insert(OutlineItem("white"), at: 0)
    outline.mutableSetValue(for: \.tags).insert(red)
    red.color = 3
    outline.mutableArrayValue(for: \.items).reverse()
    milk.note = nil
    outline.selection = nil
    outline.mutableSetValue(for: \.tags).remove(red)
    outline.mutableArrayValue(for: \.items).remove(at: 0)
    token.invalidate()
    let after = OutlineSnapshot(outline)

    for (index, change) in recorded.enumerated().reversed() {
      try change.inverse.apply()
      #expect(OutlineSnapshot(outline) == states[index], "undoing \(GraphEvent(change))")
    }
    for (index, change) in recorded.enumerated() {
      try change.apply()
      #expect(OutlineSnapshot(outline) == states[index + 1], "redoing \(GraphEvent(change))")
      #expect(GraphEvent(change.inverse.inverse) == GraphEvent(change))
    }
    #expect(OutlineSnapshot(outline) == after)
    withExtendedLifetime(eggs) {}
  }

  @Test("applying a graph record notifies observers as the original change did")
  func graphApplyNotifies() throws {
    let outline = Outline()
    let milk = OutlineItem("milk")
    outline.items = [milk]
    var recorded: [KeyValueGraphChange] = []
    let token = outline.observeGraph { recorded.append($0) }
    milk.text = "Milk"
    outline.mutableArrayValue(for: \.items).insert(OutlineItem("eggs"), at: 0)
    outline.mutableSetValue(for: \.tags).insert(OutlineTag("red"))
    token.invalidate()
    let (heard, heardToken) = recordGraph(outline)
    for change in recorded.reversed() { try change.inverse.apply() }
    #expect(heard.elements == recorded.reversed().map { GraphEvent($0.inverse) })
    withExtendedLifetime(heardToken) {}
  }

  @Test("an erased record whose values are not the property's type throws a type mismatch, and changes nothing")
  func erasedTypeMismatch() {
    let target = ChangeTarget()
    target.title = "kept"
    let (titles, token) = changes(of: target, \.title, options: [.prior, .old, .new])
    #expect(throws: KeyValueCodingError.typeMismatch(key: "title", type: "ChangeTarget", expected: "String", actual: "Int")) {
      try KeyValueGraphChange(
        object: target, keyPath: \ChangeTarget.title, key: "title", change: KeyValueObservedChange(kind: .setting, newValue: 3)
      ).apply()
    }
    #expect(throws: KeyValueCodingError.typeMismatch(key: "lines", type: "ChangeTarget", expected: "Array<String>", actual: "String")) {
      try KeyValueGraphChange(
        object: target, keyPath: \ChangeTarget.lines, key: "lines",
        change: KeyValueObservedChange(kind: .insertion, newValue: "x", indexes: [0..<1])
      ).apply()
    }
    #expect(throws: KeyValueCodingError.typeMismatch(key: "ids", type: "ChangeTarget", expected: "Set<Int>", actual: "Array<Int>")) {
      try KeyValueGraphChange(
        object: target, keyPath: \ChangeTarget.ids, key: "ids",
        change: KeyValueObservedChange(kind: .insertion, newValue: [1])
      ).apply()
    }
    #expect(target.title == "kept" && target.note == nil && target.lines.isEmpty && target.ids.isEmpty)
    #expect(titles.count == 0)
    withExtendedLifetime(token) {}
  }

  @Test("an erased setting of an optional property takes the optional, or a bare value, which Swift's casts wrap")
  func erasedOptionalSetting() throws {
    let target = ChangeTarget()
    let keyPath: AnyKeyPath = \ChangeTarget.note
    try KeyValueGraphChange(
      object: target, keyPath: keyPath, key: "note", change: KeyValueObservedChange(kind: .setting, newValue: "bare" as Any)
    ).apply()
    #expect(target.note == "bare")
    try KeyValueGraphChange(
      object: target, keyPath: keyPath, key: "note", change: KeyValueObservedChange(kind: .setting, newValue: String?.none as Any)
    ).apply()
    #expect(target.note == nil)
  }

  @Test("an erased record of a key path that cannot write (a constant, a computed key) throws read-only; a private(set) one writes")
  func erasedReadOnly() throws {
    let target = ChangeTarget()
    let cases: [(AnyKeyPath, String, Any)] = [
      (\ChangeTarget.serial, "serial", 8),
      (\ChangeTarget.summary, "summary", "x"),
    ]
    for (keyPath, key, value) in cases {
      #expect(throws: KeyValueCodingError.readOnly(key: key, type: "ChangeTarget")) {
        try KeyValueGraphChange(object: target, keyPath: keyPath, key: key, change: KeyValueObservedChange(kind: .setting, newValue: value))
          .apply()
      }
    }
    #expect(target.serial == 7 && target.title == "")
    // Swift makes a stored private(set) property's key path writable, even
    // one made outside its file: a graph's record of it applies, as undo
    // needs.
    let vault = Vault()
    try KeyValueGraphChange(object: vault, keyPath: \Vault.balance, key: "balance", change: KeyValueObservedChange(kind: .setting, newValue: 0))
      .apply()
    #expect(vault.balance == 0)
  }

  @Test("an erased record of a key path rooted at another class, or a subclass, throws unknown key")
  func erasedOtherRoot() {
    let target = ChangeTarget()
    #expect(throws: KeyValueCodingError.unknownKey(key: "title", type: "ChangeTarget")) {
      try KeyValueGraphChange(
        object: target, keyPath: \Outline.title, key: "title", change: KeyValueObservedChange(kind: .setting, newValue: "x")
      ).apply()
    }
    #expect(throws: KeyValueCodingError.unknownKey(key: "queue", type: "ChangeTarget")) {
      try KeyValueGraphChange(
        object: target, keyPath: \PlainPrinter.queue, key: "queue",
        change: KeyValueObservedChange(kind: .setting, newValue: [OutlineItem]())
      ).apply()
    }
    let base = ApplyBase()
    #expect(throws: KeyValueCodingError.unknownKey(key: "extra", type: "ApplyBase")) {
      try KeyValueGraphChange(
        object: base, keyPath: \ApplySubclass.extra, key: "extra", change: KeyValueObservedChange(kind: .setting, newValue: 1)
      ).apply()
    }
    #expect(target.title == "" && base.value == 0)
  }

  @Test("an erased record of a superclass's key path applies to a subclass's object")
  func erasedSuperclassKeyPath() throws {
    let object = ApplySubclass()
    try KeyValueGraphChange(
      object: object, keyPath: \ApplyBase.value, key: "value", change: KeyValueObservedChange(kind: .setting, newValue: 4)
    ).apply()
    try KeyValueGraphChange(
      object: object, keyPath: \ApplySubclass.extra, key: "extra", change: KeyValueObservedChange(kind: .setting, newValue: 5)
    ).apply()
    #expect(object.value == 4 && object.extra == 5)
  }

  @Test("an erased to-many record passes the typed errors through")
  func erasedToManyErrors() {
    let target = ChangeTarget(lines: ["a"])
    #expect(throws: KeyValueCodingError.indexesOutOfRange(key: "lines", type: "ChangeTarget", indexes: [1..<2], count: 1)) {
      try KeyValueGraphChange(
        object: target, keyPath: \ChangeTarget.lines, key: "lines",
        change: KeyValueObservedChange(kind: .removal, oldValue: ["b"] as Any, indexes: [1..<2])
      ).apply()
    }
    #expect(throws: KeyValueCodingError.notACollection(key: "count", type: "ChangeTarget", kind: .insertion)) {
      try KeyValueGraphChange(
        object: target, keyPath: \ChangeTarget.count, key: "count",
        change: KeyValueObservedChange(kind: .insertion, newValue: 1 as Any, indexes: [0..<1])
      ).apply()
    }
    #expect(target.lines == ["a"])
  }

  // MARK: Random edits

  @Test("random array edits, recorded: their inverses in reverse give back every state, and the records replay")
  func randomEdits() async {
    await propertyCheck(
      count: editRuns,
      input: Gen.int(in: 0...9).array(of: 0...8),
      Gen.int(in: 0...ArrayEdit.kinds).array(of: 1...12),
      Gen.uint64()
    ) { start, kinds, seed in
      var generator = mixedGenerator(seed: seed)
      let target = ChangeTarget()
      target.numbers = start
      var recorded: [KeyValueObservedChange<[Int]>] = []
      var states: [[Int]] = [start]
      let token = target.observe(\.numbers, options: [.old, .new]) { target, change in
        recorded.append(change)
        states.append(target.numbers)
      }
      var edits: [ArrayEdit] = []
      for kind in kinds {
        let edit = ArrayEdit(kind: kind, count: target.numbers.count, using: &generator)
        edits.append(edit)
        edit.run(on: target.mutableArrayValue(for: \.numbers))
      }
      token.invalidate()
      let context = "edits \(edits) from \(start)"
      let replica = ChangeTarget()
      replica.numbers = start
      do {
        for change in recorded { try replica.apply(change, to: \.numbers) }
        #expect(replica.numbers == target.numbers, "\(context)")
        for (index, change) in recorded.enumerated().reversed() {
          #expect(change.inverse.inverse == change)
          try target.apply(change.inverse, to: \.numbers)
          #expect(target.numbers == states[index], "undoing \(change), \(context)")
        }
        #expect(target.numbers == start, "\(context)")
      } catch {
        Issue.record("\(error): \(context)")
      }
    }
  }
}

/// How many random edit sequences the randomised test checks:
/// `KVO_MODEL_RUNS` for a long local run.
private let editRuns = Int(ProcessInfoLite.environment("KVO_MODEL_RUNS") ?? "") ?? 500

/// One edit of an array through its proxy, drawn at random.
private enum ArrayEdit: CustomStringConvertible {
  case insert(Int, at: Int)
  case insertContents([Int], at: Int)
  case remove(at: Int)
  case removeSubrange(Range<Int>)
  case removeOdd
  case replaceSubrange(Range<Int>, with: [Int])
  case assign(Int, at: Int)
  case sort
  case reverse
  case move([Range<Int>], to: Int)

  static let kinds = 9

  init(kind: Int, count: Int, using generator: inout Xoshiro) {
    func position(upTo bound: Int) -> Int { Int.random(in: 0...bound, using: &generator) }
    func range() -> Range<Int> {
      let lower = position(upTo: count)
      return lower..<position(upTo: count - lower) + lower
    }
    func values(_ count: Int) -> [Int] { (0..<count).map { _ in Int.random(in: 0...9, using: &generator) } }
    switch kind {
    case 0: self = .insert(Int.random(in: 0...9, using: &generator), at: position(upTo: count))
    case 1: self = .insertContents(values(position(upTo: 3)), at: position(upTo: count))
    case 2 where count > 0: self = .remove(at: position(upTo: count - 1))
    case 3: self = .removeSubrange(range())
    case 4: self = .removeOdd
    case 5:
      let bounds = range()
      // Sometimes as many elements as it replaces (one replacement),
      // sometimes not (a removal, then an insertion).
      self = .replaceSubrange(bounds, with: values(Bool.random(using: &generator) ? bounds.count : position(upTo: 3)))
    case 6 where count > 0: self = .assign(Int.random(in: 0...9, using: &generator), at: position(upTo: count - 1))
    case 7: self = .sort
    case 8: self = .reverse
    default:
      let offsets = (0..<count).filter { _ in Bool.random(using: &generator) }.map { $0..<$0 + 1 }
      self = .move(offsets, to: position(upTo: count))
    }
  }

  func run(on proxy: KeyValueMutableArray<ChangeTarget, Int>) {
    switch self {
    case .insert(let value, let position): proxy.insert(value, at: position)
    case .insertContents(let values, let position): proxy.insert(contentsOf: values, at: position)
    case .remove(let position): proxy.remove(at: position)
    case .removeSubrange(let bounds): proxy.removeSubrange(bounds)
    case .removeOdd: proxy.removeAll { $0 % 2 == 1 }
    case .replaceSubrange(let bounds, let values): proxy.replaceSubrange(bounds, with: values)
    case .assign(let value, let position): proxy[position] = value
    case .sort: proxy.sort()
    case .reverse: proxy.reverse()
    case .move(let offsets, let destination): proxy.move(fromOffsets: KeyValueIndexSet(offsets), toOffset: destination)
    }
  }

  var description: String {
    switch self {
    case .insert(let value, let position): "insert(\(value), at: \(position))"
    case .insertContents(let values, let position): "insert(contentsOf: \(values), at: \(position))"
    case .remove(let position): "remove(at: \(position))"
    case .removeSubrange(let bounds): "removeSubrange(\(bounds))"
    case .removeOdd: "removeAll(where: odd)"
    case .replaceSubrange(let bounds, let values): "replaceSubrange(\(bounds), with: \(values))"
    case .assign(let value, let position): "[\(position)] = \(value)"
    case .sort: "sort()"
    case .reverse: "reverse()"
    case .move(let offsets, let destination): "move(fromOffsets: \(offsets), toOffset: \(destination))"
    }
  }
}

@KeyValueObservable
class ApplyBase {
  var value = 0
}

@KeyValueObservable
final class ApplySubclass: ApplyBase {
  var extra = 0
}

/// Everything an outline holds that a test compares: each item's keys and
/// children, the tags with their colours, the selection.
struct OutlineSnapshot: Equatable, CustomStringConvertible {
  struct Item: Equatable {
    var name: String
    var text: String
    var done: Bool
    var note: String?
    var children: [Item]

    init(_ item: OutlineItem) {
      name = item.name
      text = item.text
      done = item.done
      note = item.note.map { "\($0.name): \($0.body)" }
      children = item.children.map(Item.init)
    }
  }

  var title: String
  var items: [Item]
  var tags: [String]
  var selection: String?

  init(_ outline: Outline) {
    title = outline.title
    items = outline.items.map(Item.init)
    tags = outline.tags.map { "\($0.name)=\($0.color)" }.sorted()
    selection = outline.selection?.name
  }

  var description: String { "\(title) \(items.map(\.name)) \(tags) \(selection ?? "-")" }
}
