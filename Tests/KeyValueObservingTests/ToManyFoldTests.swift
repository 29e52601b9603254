import KeyValueObserving
import Testing

/// Collections to fold changes into, two of them trimming themselves in
/// their own `didSet`.
@KeyValueObservable
final class Backlog {
  var list: [Int] = []
  var ids: Set<Int> = []
  /// Keeps its last two elements.
  var recent: [Int] = [] {
    didSet { if recent.count > 2 { recent.removeFirst(recent.count - 2) } }
  }
  /// Keeps its two largest elements.
  var recentIDs: Set<Int> = [] {
    didSet { if recentIDs.count > 2 { recentIDs.remove(recentIDs.min()!) } }
  }
}

/// Registers a `.prior` observer of `keyPath` that runs `action` in its
/// first prior callback, and only there: registered before the observers a
/// test records, it runs before they hear of the change.
private func inFirstPrior<Object: KeyValueObservable, Value>(
  of object: Object,
  _ keyPath: KeyPath<Object, Value>,
  _ action: @escaping (Object) -> Void
) -> KeyValueObservation {
  var pending = true
  return object.observe(keyPath, options: .prior) { object, change in
    guard change.isPrior, pending else { return }
    pending = false
    action(object)
  }
}

/// A change of `list` made inside another change of it, from a callback.
enum NestedWrite: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case assignment, inPlace, manualPair, proxy, keyValueCoding

  /// Makes the list `[9]` from `[]`.
  func run(on backlog: Backlog) {
    switch self {
    case .assignment: backlog.list = [9]
    case .inPlace: backlog.list.append(9)
    case .manualPair: backlog.withChange(for: \.list) { backlog.list = [9] }
    case .proxy: backlog.mutableArrayValue(for: \.list).append(9)
    case .keyValueCoding: try! backlog.setValue([9], forKey: "list")
    }
  }

  var testDescription: String { rawValue }
}

/// How a to-many change of `list` is made.
enum ToManyForm: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case proxy, withChange, willDidPair

  /// Inserts `1` at position 0 of the list.
  func insertOne(into backlog: Backlog) {
    switch self {
    case .proxy:
      backlog.mutableArrayValue(for: \.list).insert(1, at: 0)
    case .withChange:
      backlog.withChange(.insertion, valuesAt: [0..<1], for: \.list) { backlog.list.insert(1, at: 0) }
    case .willDidPair:
      backlog.willChange(.insertion, valuesAt: [0..<1], for: \.list)
      backlog.list.insert(1, at: 0)
      backlog.didChange(.insertion, valuesAt: [0..<1], for: \.list)
    }
  }

  var testDescription: String { rawValue }
}

@Suite("To-many changes another change folds into: the record says what happened to the value")
struct ToManyFoldTests {
  @Test("a list set in a prior callback of a proxy append: the did record is a setting from the value before to the value after")
  func appendAfterSettingInPrior() {
    let backlog = Backlog()
    let writer = inFirstPrior(of: backlog, \.list) { $0.list = [9] }
    let (changes, token) = record(backlog, \.list, options: [.prior, .old, .new])
    backlog.mutableArrayValue(for: \.list).append(1)
    #expect(backlog.list == [9, 1])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [0..<1], isPrior: true),
        CollectionChange(.setting, nil, old: [], new: [9, 1]),
      ], "the prior notification keeps the kind it announced")
    withExtendedLifetime((writer, token)) {}
  }

  @Test("a list set in a prior callback of an insert at 0: observers that replay the records end equal to the list")
  func insertAfterSettingInPriorReplays() throws {
    let backlog = Backlog()
    let writer = inFirstPrior(of: backlog, \.list) { $0.list = [9, 8] }
    var mirror = ReplayingMirror(backlog.list)
    let token = backlog.observe(\.list, options: [.prior, .old, .new]) { _, change in mirror.apply(change) }
    let log = ChangeLog()
    try backlog.addObserver(log, forKeyPath: "list", options: [.prior, .old, .new])
    backlog.mutableArrayValue(for: \.list).insert(1, at: 0)
    #expect(backlog.list == [1, 9, 8])
    #expect(mirror.value == backlog.list)
    var classicMirror = ReplayingMirror<[Int]>([])
    for call in log.calls.elements { classicMirror.apply(call.change) }
    #expect(classicMirror.value == backlog.list)
    #expect(log.last?.kind == .setting)
    #expect(log.last?.keys == ["kind", "new", "old"], "a setting has no indexes")
    withExtendedLifetime((writer, token)) {}
  }

  @Test("a removal after the list was set in a prior callback is a setting")
  func removalAfterSettingInPrior() {
    let backlog = Backlog()
    backlog.list = [1, 2, 3]
    let writer = inFirstPrior(of: backlog, \.list) { $0.list = [7, 8] }
    let (changes, token) = record(backlog, \.list, options: [.prior, .old, .new])
    var mirror = ReplayingMirror(backlog.list)
    let replay = backlog.observe(\.list, options: [.old, .new]) { _, change in mirror.apply(change) }
    backlog.mutableArrayValue(for: \.list).remove(at: 0)
    #expect(backlog.list == [8])
    #expect(
      changes.elements == [
        CollectionChange(.removal, [0..<1], old: [1], isPrior: true),
        CollectionChange(.setting, nil, old: [1, 2, 3], new: [8]),
      ])
    #expect(mirror.value == backlog.list)
    withExtendedLifetime((writer, token, replay)) {}
  }

  @Test("a replacement after the list was set in a prior callback is a setting")
  func replacementAfterSettingInPrior() {
    let backlog = Backlog()
    backlog.list = [1, 2]
    let writer = inFirstPrior(of: backlog, \.list) { $0.list = [5, 6, 7] }
    let (changes, token) = record(backlog, \.list, options: [.prior, .old, .new])
    var mirror = ReplayingMirror(backlog.list)
    let replay = backlog.observe(\.list, options: [.old, .new]) { _, change in mirror.apply(change) }
    backlog.mutableArrayValue(for: \.list)[1] = 9
    #expect(backlog.list == [5, 9, 7])
    #expect(
      changes.elements == [
        CollectionChange(.replacement, [1..<2], old: [2], isPrior: true),
        CollectionChange(.setting, nil, old: [1, 2], new: [5, 9, 7]),
      ])
    #expect(mirror.value == backlog.list)
    withExtendedLifetime((writer, token, replay)) {}
  }

  @Test("a set mutation after the set was set in a prior callback is a setting, by proxy or by hand", arguments: [false, true])
  func setMutationAfterSettingInPrior(byHand: Bool) {
    let backlog = Backlog()
    backlog.ids = [1]
    let writer = inFirstPrior(of: backlog, \.ids) { $0.ids = [5] }
    let (changes, token) = record(backlog, \.ids, options: [.prior, .old, .new])
    var mirror = ReplayingMirror(backlog.ids)
    let replay = backlog.observe(\.ids, options: [.old, .new]) { _, change in mirror.apply(change) }
    if byHand {
      backlog.withChange(.union, using: [2], for: \.ids) { backlog.ids.insert(2) }
    } else {
      backlog.mutableSetValue(for: \.ids).insert(2)
    }
    #expect(backlog.ids == [2, 5])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, nil, isPrior: true),
        CollectionChange(.setting, nil, old: [1], new: [2, 5]),
      ])
    #expect(mirror.value == backlog.ids)
    withExtendedLifetime((writer, token, replay)) {}
  }

  @Test(
    "every kind of change of the list made in a prior callback turns every form of to-many change into a setting",
    arguments: ToManyForm.allCases, NestedWrite.allCases
  )
  func nestedWritesInPrior(form: ToManyForm, write: NestedWrite) {
    let backlog = Backlog()
    let writer = inFirstPrior(of: backlog, \.list) { write.run(on: $0) }
    let (changes, token) = record(backlog, \.list, options: [.prior, .old, .new])
    let (bare, bareToken) = record(backlog, \.list, options: [])
    var mirror = ReplayingMirror(backlog.list)
    let replay = backlog.observe(\.list, options: [.old, .new]) { _, change in mirror.apply(change) }
    form.insertOne(into: backlog)
    #expect(backlog.list == [1, 9])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [0..<1], isPrior: true),
        CollectionChange(.setting, nil, old: [], new: [1, 9]),
      ], "nested changes of the same key notify once, for the outermost")
    #expect(bare.elements == [CollectionChange(.setting, nil)], "no values for an observer that asked for none")
    #expect(mirror.value == backlog.list)
    withExtendedLifetime((writer, token, bareToken, replay)) {}
  }

  @Test("a change of the list in a prior callback of a class Swift Observation tracks turns a proxy append into a setting")
  func trackedClass() {
    let sheet = Sheet()
    let writer = inFirstPrior(of: sheet, \.rows) { $0.rows.append(9) }
    let (changes, token) = record(sheet, \.rows, options: [.old, .new])
    sheet.mutableArrayValue(for: \.rows).append(1)
    #expect(sheet.rows == [9, 1])
    #expect(changes.elements == [CollectionChange(.setting, nil, old: [], new: [9, 1])])
    withExtendedLifetime((writer, token)) {}
  }

  @Test("a property's own didSet that trims it during a proxy append makes the append a setting", arguments: [false, true])
  func ownObserverTrims(withPrior: Bool) {
    let backlog = Backlog()
    backlog.recent = [1, 2]
    let (changes, token) = record(backlog, \.recent, options: withPrior ? [.prior, .old, .new] : [.old, .new])
    let (newOnly, newOnlyToken) = record(backlog, \.recent, options: .new)
    var mirror = ReplayingMirror(backlog.recent)
    let replay = backlog.observe(\.recent, options: [.old, .new]) { _, change in mirror.apply(change) }
    backlog.mutableArrayValue(for: \.recent).append(3)
    #expect(backlog.recent == [2, 3])
    #expect(
      changes.elements.filter { !$0.isPrior } == [CollectionChange(.setting, nil, old: [1, 2], new: [2, 3])])
    #expect(newOnly.elements == [CollectionChange(.setting, nil, new: [2, 3])])
    #expect(mirror.value == backlog.recent)
    withExtendedLifetime((token, newOnlyToken, replay)) {}
  }

  @Test("a property's own didSet that leaves it alone keeps a proxy append an insertion")
  func ownObserverLeavesAlone() {
    let backlog = Backlog()
    let (changes, token) = record(backlog, \.recent, options: [.old, .new])
    backlog.mutableArrayValue(for: \.recent).append(1)
    #expect(changes.elements == [CollectionChange(.insertion, [0..<1], new: [1])])
    withExtendedLifetime(token) {}
  }

  @Test("a set's own didSet that trims it during a set-proxy insertion makes the insertion a setting")
  func ownObserverTrimsSet() {
    let backlog = Backlog()
    backlog.recentIDs = [1, 2]
    let (changes, token) = record(backlog, \.recentIDs, options: [.old, .new])
    var mirror = ReplayingMirror(backlog.recentIDs)
    let replay = backlog.observe(\.recentIDs, options: [.old, .new]) { _, change in mirror.apply(change) }
    backlog.mutableSetValue(for: \.recentIDs).insert(3)
    #expect(backlog.recentIDs == [2, 3])
    #expect(changes.elements == [CollectionChange(.setting, nil, old: [1, 2], new: [2, 3])])
    #expect(mirror.value == backlog.recentIDs)
    withExtendedLifetime((token, replay)) {}
  }

  @Test("changes of other keys and other objects in a prior callback leave a to-many record as it was")
  func otherKeysAndObjects() {
    let backlog = Backlog()
    let other = Backlog()
    let otherToken = other.observe(\.list, options: .prior) { _, _ in }
    let idsToken = backlog.observe(\.ids, options: .prior) { _, _ in }
    let writer = inFirstPrior(of: backlog, \.list) { backlog in
      backlog.ids = [1]
      other.list = [9]
      other.mutableArrayValue(for: \.list).append(8)
    }
    let (changes, token) = record(backlog, \.list, options: [.old, .new])
    backlog.mutableArrayValue(for: \.list).append(1)
    #expect(changes.elements == [CollectionChange(.insertion, [0..<1], new: [1])])
    #expect(other.list == [9, 8])
    withExtendedLifetime((writer, token, otherToken, idsToken)) {}
  }

  @Test("a change made in a did callback is a change of its own, with a record of its own")
  func changeInDidCallback() {
    let backlog = Backlog()
    // Registered before the writer: they hear of the outer change before
    // the change the writer makes in its did callback.
    let (changes, token) = record(backlog, \.list, options: [.old, .new])
    var mirror = ReplayingMirror(backlog.list)
    let replay = backlog.observe(\.list, options: [.old, .new]) { _, change in mirror.apply(change) }
    var pending = true
    let writer = backlog.observe(\.list) { backlog, _ in
      guard pending else { return }
      pending = false
      backlog.mutableArrayValue(for: \.list).insert(0, at: 0)
    }
    backlog.mutableArrayValue(for: \.list).append(1)
    #expect(backlog.list == [0, 1])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [0..<1], new: [1]),
        CollectionChange(.insertion, [0..<1], new: [0]),
      ])
    #expect(mirror.value == backlog.list)
    withExtendedLifetime((writer, token, replay)) {}
  }

  @Test("the body of a manual to-many change is the change it announces: its own writes keep the kind")
  func manualBodyKeepsKind() {
    let backlog = Backlog()
    backlog.list = [1]
    let (changes, token) = record(backlog, \.list, options: [.prior, .old, .new])
    backlog.withChange(.insertion, valuesAt: [0..<2], for: \.list) {
      backlog.list.insert(8, at: 0)
      backlog.list = [7, 8, 1]
      backlog.mutableArrayValue(for: \.list).remove(at: 0)
      backlog.list.insert(9, at: 0)
    }
    #expect(backlog.list == [9, 8, 1])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [0..<2], isPrior: true),
        CollectionChange(.insertion, [0..<2], new: [9, 8]),
      ])
    withExtendedLifetime(token) {}
  }
}
