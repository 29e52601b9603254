import Foundation
import KeyValueObserving
import Testing

// Edge cases of `.deallocation` (KeyValueObservingOptions and
// KeyValueTrackingOptions): what the docs promise, checked from the outside.

// MARK: - Models

@KeyValueObservable
final class EdgeItem {
  var name: String
  init(_ name: String) { self.name = name }
}

@KeyValueObservable
final class EdgeLink {
  weak var item: EdgeItem?
  var strongItem: EdgeItem?
  var label = "link"
}

protocol EdgeDelegate: AnyObject {
  var title: String { get }
}

@KeyValueObservable
final class EdgeObservableDelegate: EdgeDelegate {
  var title: String
  init(_ title: String) { self.title = title }
}

/// Not marked: nothing tells when one is freed.
final class EdgePlainDelegate: EdgeDelegate {
  var title = "plain"
}

/// Not marked.
final class EdgePlain {
  var name = "plain"
}

/// A value type holding an object strongly.
struct EdgeRef {
  let item: EdgeItem
}

@KeyValueObservable
final class EdgeCell {
  weak var item: EdgeItem?
  weak var other: EdgeItem?
  weak var link: EdgeLink?
  weak var delegate: (any EdgeDelegate)?
  weak var plain: EdgePlain?
  var title = ""
  var summary: String { "\(title)|\(item?.name ?? "-")" }
  var pair: String { "\(item?.name ?? "-")|\(other?.name ?? "-")" }
  /// A value that is not an object, but holds one.
  var snapshot: [EdgeItem] { item.map { [$0] } ?? [] }
  var ref: EdgeRef? { item.map(EdgeRef.init) }
  /// Reads the weak link, but no key of its object.
  var hasItem: Bool { item != nil }
  /// Reads a key of the object (so it is a link, heard freed) and returns a
  /// value holding it.
  var entry: EdgeRef? { item.flatMap { $0.name.isEmpty ? nil : EdgeRef(item: $0) } }
  weak var sendablePlain: EdgeSendablePlain?
}

/// Not marked, Sendable: a value async sequences can carry.
final class EdgeSendablePlain: Sendable {
  let name = "plain"
}

@KeyValueObservable
class EdgeBaseItem {
  var name = "base"
}

@KeyValueObservable
final class EdgeMarkedSubItem: EdgeBaseItem {
  var extra = 0
}

/// A subclass the macro did not mark, of a marked class.
final class EdgeUnmarkedSubItem: EdgeBaseItem {}

@KeyValueObservable
final class EdgeBaseHolder {
  weak var item: EdgeBaseItem?
}

/// A binding target, not observable.
final class EdgeLabel {
  var text = ""
  var optionalText: String? = "unset"
  weak var item: EdgeItem?
}

@KeyValueObservable
final class EdgeField {
  var text = ""
  weak var item: EdgeItem?
}

/// Something handed to another thread to let go of.
final class EdgeBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: each test hands it over and waits on a semaphore.
  var value: Value?
  init(_ value: Value?) { self.value = value }
}

/// "old→new" of a change of an optional string, `-` for a value not carried.
private func arrow(_ change: KeyValueObservedChange<String?>) -> String {
  let old = change.oldValue.map { $0 ?? "nil" } ?? "-"
  let new = change.newValue.map { $0 ?? "nil" } ?? "-"
  return (change.isPrior ? "prior " : "") + "\(old)→\(new)"
}

private func arrow(_ change: KeyValueObservedChange<String>) -> String {
  (change.isPrior ? "prior " : "") + "\(change.oldValue ?? "-")→\(change.newValue ?? "-")"
}

private func threadID() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

// MARK: - Tests

@Suite(".deallocation at its edges: what the docs promise")
struct DeallocationEdgeTests {
  // MARK: Apple's behaviour without the option

  @Test("without the option no surface hears a freed weak link")
  func withoutOptionEverySurfaceIsSilent() throws {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    cell.other = item
    let count = Counter()
    let t1 = cell.observe(\.item?.name, options: [.old, .new, .prior]) { _, _ in count.increment() }
    let t2 = cell.observe(\.item, options: [.old, .new]) { _, _ in count.increment() }
    let t3 = cell.observe(\.summary, options: [.new]) { _, _ in count.increment() }
    let log = ChangeLog()
    try cell.addObserver(log, forKeyPath: "item.name", options: [.old, .new, .prior])
    let owner = NSObject()
    let controller = KVOController(observer: owner)
    controller.observe(cell, \.pair, options: .new) { _, _, _ in count.increment() }
    let runs = Counter()
    let t4 = withKeyValueObservation { _ = cell.item?.name; runs.increment() }
    let t5 = withKeyValueObservation(of: { cell.item?.name }, options: [.old, .new]) { _ in count.increment() }
    weak let probe = item
    item = nil
    #expect(probe == nil)
    #expect(cell.item == nil)
    #expect(count.count == 0)
    #expect(log.count == 0)
    #expect(runs.count == 1)
    #expect(t4.isActive, "cell, which the closure read, is alive")
    cell.removeObserver(log, forKeyPath: "item.name")
    _ = (t1, t2, t3, t5, controller)
  }

  @Test("without the option, observationInfo names no freed-object watch")
  func withoutOptionNoLifetimeDependency() {
    let cell = EdgeCell()
    let item = EdgeItem("Ada")
    cell.item = item
    let token = cell.observe(\.item, options: .new) { _, _ in }
    #expect(cell.observationInfo.first?.dependencies == ["item"] || cell.observationInfo.first?.dependencies == [])
    _ = token
  }

  // MARK: Options

  @Test("every combination of .old/.new/.prior/.initial carries what the docs say", arguments: [
    (KeyValueObservingOptions([.deallocation]), ["-→-"]),
    ([.old, .deallocation], ["Ada→-"]),
    ([.new, .deallocation], ["-→nil"]),
    ([.old, .new, .deallocation], ["Ada→nil"]),
    ([.prior, .old, .deallocation], ["prior Ada→-", "Ada→-"]),
    ([.prior, .new, .deallocation], ["prior -→-", "-→nil"]),
    ([.prior, .old, .new, .deallocation], ["prior Ada→-", "Ada→nil"]),
    ([.initial, .new, .deallocation], ["-→Ada", "-→nil"]),
    ([.initial, .old, .new, .deallocation], ["-→Ada", "Ada→nil"]),
  ] as [(KeyValueObservingOptions, [String])])
  func optionCombinations(options: KeyValueObservingOptions, expected: [String]) {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let kinds = Recorder<KeyValueChange>()
    let token = cell.observe(\.item?.name, options: options) { _, change in
      seen.append(arrow(change))
      kinds.append(change.kind)
    }
    item = nil
    #expect(seen.elements == expected)
    #expect(kinds.elements.allSatisfy { $0 == .setting })
    _ = token
  }

  @Test("the old value is the one last notified: a setter's new value, then the freed one's")
  func oldValueIsLastNotified() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.item?.name, options: [.old, .new, .deallocation]) { _, change in seen.append(arrow(change)) }
    item?.name = "Grace"
    item?.name = "Lin"
    item = nil
    let next = EdgeItem("Kay")
    cell.item = next
    next.name = "Kay2"
    #expect(seen.elements == ["Ada→Grace", "Grace→Lin", "Lin→nil", "nil→Kay", "Kay→Kay2"])
    _ = token
  }

  @Test("an object value freed: no old value is given, and keeping it keeps nothing alive")
  func objectValueFreed() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let olds = Recorder<String>()
    let token = cell.observe(\.item, options: [.old, .new, .deallocation]) { _, change in
      let old = change.oldValue.map { $0.map { $0.name } ?? "nil" } ?? "none"
      let new = change.newValue.map { $0.map { $0.name } ?? "nil" } ?? "none"
      olds.append("\(old)→\(new)")
    }
    item = nil
    #expect(probe == nil)
    // "once freed, there is no old value to give"
    #expect(olds.elements == ["none→nil"])
    _ = token
  }

  // MARK: Keeping objects alive

  @Test("with .old, a value that is an array holding the object does not keep it alive")
  func keptArrayDoesNotKeepAlive() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let seen = Recorder<String>()
    let token = cell.observe(\.snapshot, options: [.old, .new, .deallocation]) { _, change in
      seen.append("\(change.oldValue?.map(\.name) ?? ["-"])→\(change.newValue?.map(\.name) ?? ["-"])")
    }
    item = nil
    #expect(probe == nil, "the kept old value [item] keeps the item alive")
    #expect(seen.count == 1)
    _ = token
  }

  @Test("control: the same array value without .old lets the object go")
  func arrayWithoutOldLetsGo() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let seen = Recorder<Int>()
    let token = cell.observe(\.snapshot, options: [.new, .deallocation]) { _, change in
      seen.append(change.newValue?.count ?? -1)
    }
    item = nil
    #expect(probe == nil)
    #expect(seen.elements == [0])
    _ = token
  }

  @Test("with .old, a struct value holding the object does not keep it alive")
  func keptStructDoesNotKeepAlive() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let count = Counter()
    let token = cell.observe(\.ref, options: [.old, .new, .deallocation]) { _, _ in count.increment() }
    item = nil
    #expect(probe == nil, "the kept old EdgeRef keeps the item alive")
    #expect(count.count == 1)
    _ = token
  }

  @Test("with .old, a tracked value holding the object (a tuple) does not keep it alive")
  func keptTupleDoesNotKeepAlive() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let count = Counter()
    let token = withKeyValueObservation(of: { (cell.title, cell.item) }, options: [.old, .new, .deallocation]) { _ in
      count.increment()
    }
    item = nil
    #expect(probe == nil, "the kept old (String, EdgeItem?) keeps the item alive")
    #expect(count.count == 1)
    _ = token
  }

  @Test("a classic observer's dictionary does not keep a freed link's object alive")
  func classicDoesNotKeepAlive() throws {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let log = CountingObserver()
    try cell.addObserver(log, forKeyPath: "item", options: [.old, .new, .deallocation])
    item = nil
    #expect(probe == nil)
    #expect(log.count.count == 1)
    cell.removeObserver(log, forKeyPath: "item")
  }

  @Test("the observed object freed releases the handler and what it captures")
  func rootFreedReleasesHandler() {
    var cell: EdgeCell? = EdgeCell()
    var captured: EdgeItem? = EdgeItem("captured")
    weak let capturedProbe = captured
    let item = EdgeItem("Ada")
    cell?.item = item
    let count = Counter()
    let token = cell!.observe(\.item?.name, options: [.new, .deallocation]) { [captured] _, _ in
      _ = captured
      count.increment()
    }
    captured = nil
    #expect(capturedProbe != nil)
    cell = nil
    #expect(!token.isActive)
    #expect(capturedProbe == nil, "Safety.md: when an observed object deinitialises, its closures are released")
    item.name = "after"
    #expect(count.count == 0)
  }

  @Test("a computed property that reads the weak link but no key of its object hears it freed")
  func computedReadsOnlyTheWeakLink() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.hasItem, options: [.old, .new, .deallocation]) { _, change in
      seen.append("\(change.oldValue.map { "\($0)" } ?? "-")→\(change.newValue.map { "\($0)" } ?? "-")")
    }
    item = nil
    #expect(cell.hasItem == false)
    #expect(seen.elements == ["true→false"], "the weak link item was zeroed unheard; hasItem is false, never notified")
    _ = token
  }

  @Test("a tracked closure that reads the weak link but no key of its object runs again when it is freed")
  func trackedReadsOnlyTheWeakLink() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let runs = Recorder<String>()
    let token = withKeyValueObservation(includingDeallocation: true) { runs.append(cell.item == nil ? "none" : "some") }
    item = nil
    #expect(runs.elements == ["some", "none"])
    _ = token
  }

  @Test("with .old, a value holding an object that is also a link (heard) does not keep it alive")
  func keptStructOfHeardLink() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let count = Counter()
    let token = cell.observe(\.entry, options: [.old, .new, .deallocation]) { _, _ in count.increment() }
    item = nil
    #expect(probe == nil, "the kept old value EdgeRef(item) keeps the item alive")
    #expect(count.count == 1)
    _ = token
  }

  @Test("control: the same value without .old lets the object go and is heard")
  func structOfHeardLinkWithoutOld() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let count = Counter()
    let token = cell.observe(\.entry, options: [.new, .deallocation]) { _, _ in count.increment() }
    item = nil
    #expect(probe == nil)
    #expect(count.count == 1)
    _ = token
  }

  @Test("control: with .old but without .deallocation the same value keeps nothing alive (Apple's behaviour)")
  func structOfHeardLinkOldWithoutDeallocation() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let count = Counter()
    let token = cell.observe(\.entry, options: [.old, .new]) { _, _ in count.increment() }
    item = nil
    #expect(probe == nil)
    #expect(count.count == 0)
    _ = token
  }

  @Test("objects of a marked and of an unmarked subclass on a weak link are heard freed, unreported")
  func subclassesOnWeakLink() {
    let holder = EdgeBaseHolder()
    var marked: EdgeBaseItem? = EdgeMarkedSubItem()
    holder.item = marked
    let seen = Recorder<String>()
    var token: KeyValueObservation?
    let kinds = capturingDiagnostics {
      token = holder.observe(\.item?.name, options: [.old, .new, .deallocation]) { _, change in seen.append(arrow(change)) }
    }.map(\.kind)
    marked = nil
    var unmarked: EdgeBaseItem? = EdgeUnmarkedSubItem()
    holder.item = unmarked
    unmarked = nil
    #expect(seen.elements == ["base→nil", "nil→base", "base→nil"])
    #expect(kinds.isEmpty)
    _ = token
  }

  // MARK: Existential weak links

  @Test("a weak existential delegate freed is heard, as the value and as a link")
  func weakExistentialDelegate() {
    let cell = EdgeCell()
    var delegate: EdgeObservableDelegate? = EdgeObservableDelegate("Ada")
    cell.delegate = delegate
    weak let probe = delegate
    let values = Recorder<String>()
    let titles = Recorder<String>()
    let t1 = cell.observe(\.delegate, options: [.old, .new, .deallocation]) { _, change in
      let old = change.oldValue.map { $0.map { $0.title } ?? "nil" } ?? "none"
      let new = change.newValue.map { $0.map { $0.title } ?? "nil" } ?? "none"
      values.append("\(old)→\(new)")
    }
    let t2 = cell.observe(\.delegate?.title, options: [.old, .new, .deallocation]) { _, change in titles.append(arrow(change)) }
    delegate = nil
    #expect(probe == nil)
    #expect(values.count == 1)
    #expect(values.elements.last?.hasSuffix("→nil") == true)
    #expect(titles.elements == ["Ada→nil"])
    let next = EdgeObservableDelegate("Lin")
    cell.delegate = next
    next.title = "Lin2"
    #expect(titles.elements == ["Ada→nil", "nil→Lin", "Lin→Lin2"])
    _ = (t1, t2)
  }

  @Test("a weak existential delegate of a plain class is reported at registration")
  func weakExistentialPlainReported() {
    let cell = EdgeCell()
    let delegate = EdgePlainDelegate()
    cell.delegate = delegate
    var tokens: [KeyValueObservation] = []
    let asValue = capturingDiagnostics {
      tokens.append(cell.observe(\.delegate, options: [.new, .deallocation]) { _, _ in })
    }
    #expect(asValue.map(\.kind).contains(.unheardDeallocation))
    let asLink = capturingDiagnostics {
      tokens.append(cell.observe(\.delegate?.title, options: [.new, .deallocation]) { _, _ in })
    }
    #expect(asLink.map(\.kind).contains(.unheardDeallocation), "a plain object behind an existential link: \(asLink)")
    _ = tokens
  }

  // MARK: Chains

  @Test("two weak links: each freed object is one change; a link no longer on the path is not heard")
  func twoWeakLinks() {
    let cell = EdgeCell()
    var link: EdgeLink? = EdgeLink()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.link = link
    link?.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.link?.item?.name, options: [.old, .new, .deallocation]) { _, change in
      seen.append(arrow(change))
    }
    item = nil
    #expect(seen.elements == ["Ada→nil"])
    var second: EdgeItem? = EdgeItem("Lin")
    link?.item = second
    second?.name = "Lin2"
    #expect(seen.elements == ["Ada→nil", "nil→Lin", "Lin→Lin2"])
    link = nil
    #expect(seen.elements == ["Ada→nil", "nil→Lin", "Lin→Lin2", "Lin2→nil"])
    second?.name = "stale"
    second = nil
    #expect(seen.count == 4, "objects no longer on the path are not heard: \(seen.elements)")
    #expect(cell.observationInfo.first?.dependencies == ["link"])
    _ = token
  }

  @Test("a link freed first: the link's freeing is one change even though it frees what it holds")
  func cascadeThroughStrongLink() {
    let cell = EdgeCell()
    var link: EdgeLink? = EdgeLink()
    link?.strongItem = EdgeItem("Ada")
    weak let itemProbe = link?.strongItem
    cell.link = link
    let seen = Recorder<String>()
    let token = cell.observe(\.link?.strongItem?.name, options: [.old, .new, .prior, .deallocation]) { _, change in
      seen.append(arrow(change))
    }
    link = nil
    #expect(itemProbe == nil)
    #expect(seen.elements == ["prior Ada→-", "Ada→nil"])
    _ = token
  }

  @Test("one object at two places of the value: freed, one change")
  func sameObjectTwiceOnPath() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    cell.other = item
    let seen = Recorder<String>()
    let token = cell.observe(\.pair, options: [.old, .new, .deallocation]) { _, change in seen.append(arrow(change)) }
    item = nil
    #expect(seen.elements == ["Ada|Ada→-|-"])
    _ = token
  }

  @Test("one object on the paths of two observations and two roots: each hears it once")
  func oneObjectManyObservations() {
    let first = EdgeCell()
    let second = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    first.item = item
    second.link = nil
    second.item = item
    let count = Counter()
    let tokens = [
      first.observe(\.item?.name, options: [.new, .deallocation]) { _, _ in count.increment() },
      first.observe(\.item, options: [.new, .deallocation]) { _, _ in count.increment() },
      first.observe(\.summary, options: [.new, .deallocation]) { _, _ in count.increment() },
      second.observe(\.item?.name, options: [.new, .deallocation]) { _, _ in count.increment() },
    ]
    item = nil
    #expect(count.count == 4)
    _ = tokens
  }

  @Test("observationInfo forgets the freed object's keys")
  func observationInfoAfterFree() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let token = cell.observe(\.item, options: [.new, .deallocation]) { _, _ in }
    #expect(cell.observationInfo.first?.dependencies == ["item", "EdgeItem.deinit"])
    item = nil
    #expect(cell.observationInfo.first?.dependencies == ["item"])
    _ = token
  }

  // MARK: Changes under way, handlers

  @Test("a manual will/did of the weak key around the freeing is one change")
  func manualChangeAroundFreeing() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.item?.name, options: [.old, .new, .prior, .deallocation]) { _, change in
      seen.append(arrow(change))
    }
    cell.willChangeValue(for: \.item)
    item = nil
    cell.didChangeValue(for: \.item)
    #expect(seen.elements == ["prior Ada→-", "Ada→nil"])
    _ = token
  }

  @Test("a manual will/did of a key off the path does not swallow the freeing")
  func unrelatedChangeOpen() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.item?.name, options: [.old, .new, .deallocation]) { _, change in seen.append(arrow(change)) }
    cell.willChangeValue(for: \.title)
    item = nil
    cell.didChangeValue(for: \.title)
    #expect(seen.elements == ["Ada→nil"])
    _ = token
  }

  @Test("an object freed inside the handler of a setter's change is heard", arguments: [false, true])
  func freedInsideDidHandler(tracked: Bool) {
    let cell = EdgeCell()
    let box = EdgeBox(EdgeItem("Ada"))
    cell.item = box.value
    let seen = Recorder<String>()
    let handler: (String) -> Void = { value in
      seen.append(value)
      if value == "x|Ada" { box.value = nil }  // the last reference, freed here
    }
    let token =
      tracked
      ? withKeyValueObservation(of: { cell.summary }, options: [.new, .deallocation]) { handler($0.newValue!) }
      : cell.observe(\.summary, options: [.new, .deallocation]) { _, change in handler(change.newValue!) }
    cell.title = "x"
    #expect(cell.item == nil)
    #expect(seen.elements == ["x|Ada", "x|-"], "the value now is x|-, never notified")
    _ = token
  }

  @Test("an object freed inside the handler of the link's own change is heard")
  func freedInsideHandlerOfLeafChange() {
    let cell = EdgeCell()
    let box = EdgeBox(EdgeItem("Ada"))
    cell.item = box.value
    let seen = Recorder<String?>()
    let token = cell.observe(\.item?.name, options: [.new, .deallocation]) { _, change in
      seen.append(change.newValue!)
      if change.newValue == "Grace" { box.value = nil }
    }
    cell.item?.name = "Grace"
    #expect(cell.item == nil)
    #expect(seen.elements == ["Grace", nil])
    _ = token
  }

  @Test("an object freed inside a prior handler is that change: one did, with the value after")
  func freedInsidePriorHandler() {
    let cell = EdgeCell()
    let box = EdgeBox(EdgeItem("Ada"))
    cell.item = box.value
    let seen = Recorder<String>()
    let token = cell.observe(\.summary, options: [.prior, .old, .new, .deallocation]) { _, change in
      seen.append(arrow(change))
      if change.isPrior { box.value = nil }
    }
    cell.title = "x"
    #expect(seen.elements == ["prior |Ada→-", "|Ada→x|-"])
    _ = token
  }

  @Test("an object freed inside the handler of another freed object's change is heard, nested")
  func freedInsideDeallocationHandler() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("A")
    let other = EdgeBox(EdgeItem("B"))
    cell.item = item
    cell.other = other.value
    let seen = Recorder<String>()
    let token = cell.observe(\.pair, options: [.old, .new, .deallocation]) { _, change in
      seen.append(arrow(change))
      if change.newValue == "-|B" { other.value = nil }
    }
    item = nil
    #expect(seen.elements == ["A|B→-|B", "-|B→-|-"])
    _ = token
  }

  @Test("invalidating inside the freed object's handler stops it")
  func invalidateInsideDeallocationHandler() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("A")
    var other: EdgeItem? = EdgeItem("B")
    cell.item = item
    cell.other = other
    let count = Counter()
    let tokenBox = EdgeBox<KeyValueObservation>(nil)
    tokenBox.value = cell.observe(\.pair, options: [.new, .deallocation]) { _, _ in
      count.increment()
      tokenBox.value?.invalidate()
    }
    item = nil
    other = nil
    cell.title = "t"
    #expect(count.count == 1)
    #expect(tokenBox.value?.isActive == false)
  }

  @Test("the observed object freed inside a handler: later frees are not heard, nothing crashes")
  func rootFreedInsideHandler() {
    let root = EdgeBox(EdgeCell())
    var item: EdgeItem? = EdgeItem("Ada")
    root.value?.item = item
    let count = Counter()
    let token = root.value!.observe(\.summary, options: [.new, .deallocation]) { _, _ in
      count.increment()
      root.value = nil
    }
    root.value?.title = "x"
    #expect(root.value == nil)
    #expect(!token.isActive)
    item?.name = "after"
    item = nil
    #expect(count.count == 1)
  }

  @Test("the observed object freed: a link object still alive keeps no live registration")
  func rootFreedThenLinkChanges() async {
    var cell: EdgeCell? = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell?.item = item
    let count = Counter()
    let token = cell!.observe(\.item?.name, options: [.new, .deallocation]) { _, _ in count.increment() }
    let changes = cell!.changes(for: \.item?.name, options: [.new, .deallocation])
    let log = CountingObserver()
    try? cell!.addObserver(log, forKeyPath: "item.name", options: [.new, .deallocation])
    cell = nil
    #expect(!token.isActive)
    item?.name = "after"
    item = nil
    var seen = 0
    for await _ in changes { seen += 1 }
    #expect(count.count == 0)
    #expect(log.count.count == 0)
    #expect(seen == 0)
  }

  // MARK: Threads

  @Test("the notification comes from the thread that let go of the last reference")
  func deliveredOnFreeingThread() {
    let cell = EdgeCell()
    let box = EdgeBox(EdgeItem("Ada"))
    cell.item = box.value
    let handlerThreads = Recorder<ObjectIdentifier>()
    let values = Recorder<String?>()
    let token = cell.observe(\.item?.name, options: [.new, .deallocation]) { _, change in
      handlerThreads.append(threadID())
      values.append(change.newValue!)
    }
    let freeing = EdgeBox<ObjectIdentifier>(nil)
    let done = DispatchSemaphore(value: 0)
    onNewThread {
      freeing.value = threadID()
      box.value = nil
      done.signal()
    }
    done.wait()
    #expect(values.elements == [nil])
    #expect(handlerThreads.elements == [freeing.value!])
    _ = token
  }

  @Test("a handler that waits for another thread to free an object on the path does not deadlock")
  func handlerWaitsForFreeingThread() {
    let cell = EdgeCell()
    let item = EdgeItem("A")
    let other = EdgeBox(EdgeItem("B"))
    cell.item = item
    cell.other = other.value
    let seen = Recorder<String>()
    let result = EdgeBox<DispatchTimeoutResult>(nil)
    let token = cell.observe(\.pair, options: [.new, .deallocation]) { _, change in
      seen.append(change.newValue!)
      if change.newValue == "go|B" {
        let finished = DispatchSemaphore(value: 0)
        onNewThread {
          other.value = nil
          finished.signal()
        }
        result.value = finished.wait(timeout: .now() + 30)
      }
    }
    item.name = "go"
    #expect(result.value == .success)
    #expect(Set(seen.elements) == ["go|B", "go|-"])
    _ = token
  }

  @Test("a freed-object handler on one thread that waits for a write on another does not deadlock")
  func deallocationHandlerWaitsForWriter() {
    let cell = EdgeCell()
    let box = EdgeBox(EdgeItem("Ada"))
    cell.item = box.value
    let shared = EdgeBox(cell)
    let seen = Recorder<String>()
    let result = EdgeBox<DispatchTimeoutResult>(nil)
    let wrote = DispatchSemaphore(value: 0)
    let token = cell.observe(\.summary, options: [.new, .deallocation]) { _, change in
      seen.append(change.newValue!)
      if change.newValue == "|-" {
        onNewThread {
          shared.value?.title = "y"
          wrote.signal()
        }
        result.value = wrote.wait(timeout: .now() + 30)
      }
    }
    let done = DispatchSemaphore(value: 0)
    onNewThread {
      box.value = nil
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(result.value == .success)
    #expect(Set(seen.elements) == ["|-", "y|-"])
    shared.value = nil
    _ = token
  }

  @Test("root and link freed at once on two threads: no crash, at most one change, the token ends")
  func rootAndLinkFreedConcurrently() {
    for _ in 0..<300 {
      let root = EdgeBox(EdgeCell())
      let item = EdgeBox(EdgeItem("Ada"))
      root.value?.item = item.value
      let count = Counter()
      let token = root.value!.observe(\.item?.name, options: [.old, .new, .deallocation]) { _, _ in count.increment() }
      let done = DispatchSemaphore(value: 0)
      onNewThread {
        root.value = nil
        done.signal()
      }
      onNewThread {
        item.value = nil
        done.signal()
      }
      done.wait()
      done.wait()
      #expect(!token.isActive)
      #expect(count.count <= 1)
    }
  }

  @Test("two objects on the path freed at once on two threads: the final value is notified")
  func twoLinksFreedConcurrently() {
    for _ in 0..<300 {
      let cell = EdgeCell()
      let first = EdgeBox(EdgeItem("A"))
      let second = EdgeBox(EdgeItem("B"))
      cell.item = first.value
      cell.other = second.value
      let seen = Recorder<String>()
      let token = cell.observe(\.pair, options: [.new, .deallocation]) { _, change in seen.append(change.newValue!) }
      let done = DispatchSemaphore(value: 0)
      onNewThread {
        first.value = nil
        done.signal()
      }
      onNewThread {
        second.value = nil
        done.signal()
      }
      done.wait()
      done.wait()
      #expect(cell.pair == "-|-")
      #expect(seen.elements.contains("-|-"), "the value now, -|-, was never notified: \(seen.elements)")
      #expect((1...2).contains(seen.count))
      _ = token
    }
  }

  // MARK: Classic observers and the controller

  @Test("a classic observer by string with .prior, .old, .new and .initial")
  func classicAllOptions() throws {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let log = ChangeLog()
    try cell.addObserver(log, forKeyPath: "item.name", options: [.initial, .prior, .old, .new, .deallocation])
    #expect(log.count == 1)
    item = nil
    #expect(log.count == 3)
    let prior = log.calls.elements[1]
    let did = log.calls.elements[2]
    #expect(prior.isPrior)
    #expect(prior.change[.old] as? String == "Ada")
    #expect(prior.keys == ["kind", "notificationIsPrior", "old"])
    #expect(!did.isPrior)
    #expect(did.kind == .setting)
    #expect(did.change[.old] as? String == "Ada")
    #expect(did.keys == ["kind", "new", "old"])
    #expect(cell.removeObserver(log, forKeyPath: "item.name"))
  }

  @Test("a classic observer of a chain through two weak links, by string")
  func classicTwoWeakLinks() throws {
    let cell = EdgeCell()
    var link: EdgeLink? = EdgeLink()
    let item = EdgeItem("Ada")
    cell.link = link
    link?.item = item
    let log = ChangeLog()
    try cell.addObserver(log, forKeyPath: "link.item.name", options: [.old, .new, .deallocation])
    link = nil
    #expect(log.count == 1)
    #expect(log.last?.change[.old] as? String == "Ada")
    item.name = "stale"
    #expect(log.count == 1)
    #expect(cell.removeObserver(log, forKeyPath: "link.item.name"))
  }

  @Test("a classic observer freed while registered: the freed link is dropped quietly")
  func classicObserverFreedFirst() throws {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    var observer: ChangeLog? = ChangeLog()
    try cell.addObserver(observer!, forKeyPath: "item.name", options: [.new, .deallocation])
    weak let observerProbe = observer
    observer = nil
    #expect(observerProbe == nil)
    let reported = capturingDiagnostics { item = nil }
    #expect(reported.allSatisfy { $0.kind == .observerFreedWhileRegistered })
  }

  @Test("a controller that does not retain the object: the object freed ends it, the link freed after says nothing")
  func controllerNotRetaining() throws {
    let owner = NSObject()
    let controller = KVOController(observer: owner, retainsObserved: false)
    var cell: EdgeCell? = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell?.item = item
    let count = Counter()
    controller.observe(cell, \.item?.name, options: [.new, .deallocation]) { _, _, _ in count.increment() }
    try controller.observe(cell, keyPath: "item.name", options: [.new, .deallocation]) { _, _, _ in count.increment() }
    weak let cellProbe = cell
    cell = nil
    #expect(cellProbe == nil)
    item = nil
    #expect(count.count == 0)
    controller.unobserveAll()
  }

  @Test("a controller that retains the object: the freed link is heard once per registration")
  func controllerRetaining() throws {
    let owner = NSObject()
    let controller = KVOController(observer: owner)
    var cell: EdgeCell? = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell?.item = item
    let typed = Recorder<String?>()
    let byString = Recorder<String>()
    controller.observe(cell, \.item?.name, options: [.old, .new, .deallocation]) { _, _, change in
      typed.append(change.newValue!)
    }
    try controller.observe(cell, keyPath: "item.name", options: [.old, .new, .deallocation]) { _, _, change in
      byString.append(change[.old] as? String ?? "-")
    }
    weak let cellProbe = cell
    cell = nil
    #expect(cellProbe != nil, "the controller retains it")
    item = nil
    #expect(typed.elements == [nil])
    #expect(byString.elements == ["Ada"])
    controller.unobserveAll()
    #expect(cellProbe == nil)
  }

  // MARK: Async sequences

  @Test("changes(for:) hears a link freed on another thread, then finishes with the object")
  func changesFreedOnAnotherThread() async {
    var cell: EdgeCell? = EdgeCell()
    let item = EdgeBox(EdgeItem("Ada"))
    cell?.item = item.value
    let changes = cell!.changes(for: \.item?.name, options: [.old, .new, .prior, .deallocation])
    await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
      onNewThread {
        item.value = nil
        resume.resume()
      }
    }
    cell = nil
    var seen: [String] = []
    for await change in changes { seen.append(arrow(change)) }
    #expect(seen == ["prior Ada→-", "Ada→nil"])
  }

  @Test("values(for:options:) through two weak links")
  func valuesTwoWeakLinks() async {
    var cell: EdgeCell? = EdgeCell()
    var link: EdgeLink? = EdgeLink()
    let item = EdgeItem("Ada")
    cell?.link = link
    link?.item = item
    let values = cell!.values(for: \.link?.item?.name, includingDeallocation: true, bufferingPolicy: .unbounded)
    let deaf = cell!.values(for: \.link?.item?.name, bufferingPolicy: .unbounded)
    link = nil
    item.name = "stale"
    cell = nil
    var seen: [String?] = []
    for await value in values { seen.append(value) }
    var unheard: [String?] = []
    for await value in deaf { unheard.append(value) }
    #expect(seen == ["Ada", nil])
    #expect(unheard == ["Ada"])
  }

  @Test("values(for:includingDeallocation:) gives the new value once per change, then nil when freed")
  func valuesIgnoresOtherOptions() async {
    var cell: EdgeCell? = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell?.item = item
    let values = cell!.values(for: \.item?.name, includingDeallocation: true, bufferingPolicy: .unbounded)
    item?.name = "Grace"
    item = nil
    cell = nil
    var seen: [String?] = []
    for await value in values { seen.append(value) }
    #expect(seen == ["Ada", "Grace", nil])
  }

  @Test("values(for:) of a name through a freed link keeps nothing alive")
  func valuesOfObjectBuffer() async {
    var cell: EdgeCell? = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell?.item = item
    weak let probe = item
    let names = cell!.values(for: \.item?.name, includingDeallocation: true)
    item = nil
    #expect(probe == nil, "values of a name do not keep the item")
    cell = nil
    var seen: [String?] = []
    for await name in names { seen.append(name) }
    #expect(seen == [nil])
  }

  // MARK: Tracked closures

  @Test("a tracked closure that reads an object through a weak capture runs once more when it is freed")
  func trackedWeakCapture() {
    var item: EdgeItem? = EdgeItem("Ada")
    let hearing = Recorder<String>()
    let deaf = Recorder<String>()
    var captured: EdgeItem? = EdgeItem("captured")
    weak let capturedProbe = captured
    let t1 = withKeyValueObservation(includingDeallocation: true) { [weak item, captured] in
      _ = captured
      hearing.append(item?.name ?? "—")
    }
    captured = nil
    let t2 = withKeyValueObservation { [weak item] in deaf.append(item?.name ?? "—") }
    let reported = capturingDiagnostics { item = nil }
    #expect(hearing.elements == ["Ada", "—"])
    #expect(capturedProbe == nil, "the ended observation releases the closure")
    #expect(deaf.elements == ["Ada"])
    #expect(!t1.isActive, "nothing left to read")
    #expect(!t2.isActive)
    #expect(reported.isEmpty, "the last run read nothing because of the freeing, not a misuse: \(reported)")
  }

  @Test("a tracked value read through a weak capture: the freeing is the last change")
  func trackedValueWeakCapture() {
    var item: EdgeItem? = EdgeItem("Ada")
    let seen = Recorder<String>()
    let token = withKeyValueObservation(of: { [weak item] in item?.name }, options: [.old, .new, .deallocation]) {
      seen.append(arrow($0))
    }
    item = nil
    #expect(seen.elements == ["Ada→nil"])
    #expect(!token.isActive)
  }

  @Test("a tracked closure reading two weak links and a cascade: one run per freeing, none for the cascade")
  func trackedCascade() {
    let cell = EdgeCell()
    var link: EdgeLink? = EdgeLink()
    link?.strongItem = EdgeItem("Ada")
    cell.link = link
    let runs = Recorder<String>()
    let token = withKeyValueObservation(includingDeallocation: true) {
      runs.append("\(cell.link?.label ?? "-") \(cell.link?.strongItem?.name ?? "-")")
    }
    link = nil
    #expect(runs.elements == ["link Ada", "- -"])
    _ = token
  }

  @Test("a tracked value with .prior and .initial")
  func trackedValuePriorInitial() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = withKeyValueObservation(of: { cell.item?.name }, options: [.initial, .prior, .old, .new, .deallocation]) {
      seen.append(arrow($0))
    }
    item = nil
    #expect(seen.elements == ["-→Ada", "prior Ada→-", "Ada→nil"])
    _ = token
  }

  @Test("the value form's .deallocation, with .prior")
  func trackedValueTrackingOptionWithPrior() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = withKeyValueObservation(of: { cell.item?.name }, options: [.prior, .old, .new, .deallocation]) {
      seen.append(arrow($0))
    }
    item = nil
    #expect(seen.elements == ["prior Ada→-", "Ada→nil"])
    _ = token
  }

  // MARK: Bindings

  @Test("a binding to an optional target writes nil when the link's object is freed")
  func bindingOptionalTarget() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    let label = EdgeLabel()
    let token = cell.bind(\.item?.name, to: \.optionalText, on: label)
    #expect(label.optionalText == "Ada")
    item = nil
    #expect(label.optionalText == nil)
    _ = token
  }

  @Test("a binding through two weak links writes the placeholder")
  func bindingPlaceholderChain() {
    let cell = EdgeCell()
    var link: EdgeLink? = EdgeLink()
    let item = EdgeItem("Ada")
    cell.link = link
    link?.item = item
    let label = EdgeLabel()
    let token = cell.bind(\.link?.item?.name, to: \.text, on: label) { $0 ?? "—" }
    #expect(label.text == "Ada")
    link = nil
    #expect(label.text == "—")
    item.name = "stale"
    #expect(label.text == "—")
    _ = token
  }

  @Test("a binding of an object to a weak target property keeps nothing alive")
  func bindingObjectKeepsNothing() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let label = EdgeLabel()
    let token = cell.bind(\.item, to: \.item, on: label)
    #expect(label.item === item)
    item = nil
    #expect(probe == nil)
    #expect(label.item == nil)
    _ = token
  }

  @Test("a two-way binding of two weak properties: the freed object writes nil, no loop, nothing kept")
  func twoWayBindingOfWeakProperties() {
    let cell = EdgeCell()
    var item: EdgeItem? = EdgeItem("Ada")
    cell.item = item
    weak let probe = item
    let field = EdgeField()
    let token = cell.bind(\.item, twoWayTo: \.item, on: field, initialValueFrom: .source)
    #expect(field.item === item)
    item = nil
    #expect(probe == nil)
    #expect(field.item == nil)
    #expect(cell.item == nil)
    let next = EdgeItem("Lin")
    field.item = next
    #expect(cell.item === next)
    _ = token
  }

  // MARK: The report of a plain class

  @Test("a plain class on the path is reported, on every form that takes the option")
  func plainReportedEverywhere() throws {
    let cell = EdgeCell()
    let plain = EdgePlain()
    cell.plain = plain
    let sendablePlain = EdgeSendablePlain()
    cell.sendablePlain = sendablePlain
    let owner = NSObject()
    let controller = KVOController(observer: owner)
    var kept: [Any] = []
    var byForm: [String: [KeyValueObservingDiagnostic.Kind]] = [:]
    byForm["observe"] = capturingDiagnostics {
      kept.append(cell.observe(\.plain, options: [.new, .deallocation]) { _, _ in })
    }.map(\.kind)
    byForm["addObserver"] = try capturingDiagnostics {
      try cell.addObserver(CountingObserver(), forKeyPath: "plain", options: [.new, .deallocation])
    }.map(\.kind)
    byForm["controller"] = capturingDiagnostics {
      controller.observe(cell, \.plain, options: [.new, .deallocation]) { _, _, _ in }
    }.map(\.kind)
    // (The controller's string form is checked on its own below: a second
    // registration of the same object and key is ignored, as FBKVOController's.)
    byForm["changes"] = capturingDiagnostics {
      kept.append(cell.changes(for: \.sendablePlain, options: [.new, .deallocation]))
    }.map(\.kind)
    byForm["values"] = capturingDiagnostics {
      kept.append(cell.values(for: \.sendablePlain, includingDeallocation: true))
    }.map(\.kind)
    byForm["value form"] = capturingDiagnostics {
      kept.append(withKeyValueObservation(of: { cell.plain }, options: [.new, .deallocation]) { _ in })
    }.map(\.kind)
    byForm["tracked closure"] = capturingDiagnostics {
      kept.append(withKeyValueObservation(includingDeallocation: true) { _ = cell.plain; _ = cell.title })
    }.map(\.kind)
    for (form, kinds) in byForm.sorted(by: { $0.key < $1.key }) {
      #expect(kinds.contains(.unheardDeallocation), "\(form): \(kinds)")
    }
    controller.unobserveAll()
    _ = kept
  }

  @Test("a controller by string reports a plain object, as addObserver by string does")
  func controllerStringReports() throws {
    let cell = EdgeCell()
    let plain = EdgePlain()
    cell.plain = plain
    let owner = NSObject()
    let controller = KVOController(observer: owner)
    let blockForm = try capturingDiagnostics {
      try controller.observe(cell, keyPath: "plain", options: [.new, .deallocation]) { _, _, _ in }
    }.map(\.kind)
    let otherCell = EdgeCell()
    otherCell.plain = plain
    let observer = CountingObserver()
    let delivering = KVOController(observer: observer)
    let contextForm = try capturingDiagnostics {
      try delivering.observe(otherCell, keyPath: "plain", options: [.new, .deallocation])
    }.map(\.kind)
    let third = EdgeCell()
    third.plain = plain
    let classic = try capturingDiagnostics {
      try third.addObserver(CountingObserver(), forKeyPath: "plain", options: [.new, .deallocation])
    }.map(\.kind)
    #expect(classic == [.unheardDeallocation])
    #expect(blockForm == [.unheardDeallocation])
    #expect(contextForm == [.unheardDeallocation])
    controller.unobserveAll()
    delivering.unobserveAll()
  }

  @Test("the Kind's own example, \\.theme?.name with a plain Theme, reports .unheardDeallocation")
  func plainLinkReported() {
    let cell = EdgeCell()
    let plain = EdgePlain()
    cell.plain = plain
    var token: KeyValueObservation?
    let kinds = capturingDiagnostics {
      token = cell.observe(\.plain?.name, options: [.new, .deallocation]) { _, _ in }
    }.map(\.kind)
    #expect(!kinds.isEmpty)
    #expect(kinds.contains(.unheardDeallocation), "reported: \(kinds)")
    _ = (token, plain)
  }

  @Test("without the option, no form reports .unheardDeallocation")
  func plainNotReportedWithoutOption() throws {
    let cell = EdgeCell()
    let plain = EdgePlain()
    let delegate = EdgePlainDelegate()
    cell.plain = plain
    cell.delegate = delegate
    var kept: [Any] = [plain, delegate]
    let kinds = try capturingDiagnostics {
      kept.append(cell.observe(\.plain, options: [.new, .old, .prior]) { _, _ in })
      kept.append(cell.observe(\.delegate, options: [.new]) { _, _ in })
      try cell.addObserver(CountingObserver(), forKeyPath: "plain", options: [.new])
      kept.append(withKeyValueObservation(of: { cell.plain }, options: [.new]) { _ in })
      kept.append(withKeyValueObservation { _ = cell.plain; _ = cell.title })
    }.map(\.kind)
    #expect(!kinds.contains(.unheardDeallocation))
    _ = kept
  }

  @Test("a plain object that arrives on the path after registration")
  func plainArrivesLater() {
    let cell = EdgeCell()
    var token: KeyValueObservation?
    let atRegistration = capturingDiagnostics {
      token = cell.observe(\.delegate, options: [.new, .deallocation]) { _, _ in }
    }
    #expect(atRegistration.isEmpty)
    let plain = EdgePlainDelegate()
    let later = capturingDiagnostics { cell.delegate = plain }
    #expect(later.map(\.kind).contains(.unheardDeallocation), "nothing says the new delegate will be freed unheard")
    _ = token
  }

  @Test("a binding from a weak property holding a plain object is not reported: it did not ask")
  func bindingPlainObject() {
    let cell = EdgeCell()
    let plain = EdgePlain()
    cell.plain = plain
    final class Target { weak var plain: EdgePlain? }
    let target = Target()
    var token: KeyValueObservation?
    let kinds = capturingDiagnostics {
      token = cell.bind(\.plain, to: \.plain, on: target)
    }.map(\.kind)
    // A binding hears freed objects without being asked for .deallocation:
    // what it cannot hear is not the user's request to report.
    #expect(!kinds.contains(.unheardDeallocation), "reported: \(kinds)")
    #expect(target.plain === plain)
    _ = token
  }
}
