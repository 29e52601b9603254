import Foundation
import KeyValueObserving
import Testing

/// A cell whose item is held weakly, as a table cell holds its model.
@KeyValueObservable
final class WeakCell {
  weak var item: CellItem?
  var holder: CellHolder?
  var title = ""
}

@KeyValueObservable
final class CellItem {
  var name: String
  var tags: [String] = []
  var detail: CellDetail?
  init(_ name: String) { self.name = name }
}

@KeyValueObservable
final class CellDetail {
  var text = "detail"
}

/// A class the macro did not mark: nothing tells when one is freed.
final class UnmarkedTheme {
  var name = "plain"
}

@KeyValueObservable
final class UnmarkedThemeCell {
  weak var theme: UnmarkedTheme?
  var title = ""
}

/// A cell whose delegate is one of Foundation's classes, held weakly.
@KeyValueObservable
final class FoundationDelegateCell {
  weak var delegate: NSObject?
}

/// A label a binding writes, not observable itself.
final class PlainLabel {
  var text = ""
}

/// A strong link whose object holds the weak one.
@KeyValueObservable
final class CellHolder {
  weak var item: CellItem?
}

@Suite("the .deallocation option: a freed object on the path is a change")
struct DeallocationOptionTests {
  @Test("a weak link's object freed delivers old → nil, once, with a prior first")
  func weakLinkFreed() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.item?.name, options: [.old, .new, .prior, .deallocation]) { _, change in
      let old = change.oldValue.map { "\($0 ?? "nil")" } ?? "-"
      let new = change.newValue.map { "\($0 ?? "nil")" } ?? "-"
      seen.append("\(change.isPrior ? "prior " : "")\(old)→\(new)")
    }
    item?.name = "Grace"
    item = nil
    #expect(seen.elements == ["prior Ada→-", "Ada→Grace", "prior Grace→-", "Grace→nil"])
    let replacement = CellItem("Lin")
    cell.item = replacement
    replacement.name = "Lin'"
    #expect(seen.elements.suffix(4) == ["prior nil→-", "nil→Lin", "prior Lin→-", "Lin→Lin'"])
    _ = token
  }

  @Test("without the option a freed weak link is silent, as with Apple's KVO")
  func silentByDefault() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let count = Counter()
    let token = cell.observe(\.item?.name, options: [.old, .new]) { _, _ in count.increment() }
    item = nil
    #expect(count.count == 0)
    _ = (token, item)
  }

  @Test("a weak property holding the object itself hears it freed")
  func weakPropertyItselfFreed() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let seen = Recorder<String>()
    let token = cell.observe(\.item, options: [.old, .new, .deallocation]) { _, change in
      seen.append("\(change.oldValue??.name ?? "nil")→\(change.newValue.map { $0?.name ?? "nil" } ?? "-")")
    }
    item = nil
    #expect(seen.count == 1)
    #expect(seen.elements.last?.hasSuffix("→nil") == true)
    let second = CellItem("Lin")
    cell.item = second
    #expect(seen.elements.last == "nil→Lin")
    _ = token
  }

  @Test("a weak link deeper in the chain, behind a strong one")
  func deeperWeakLink() {
    let cell = WeakCell()
    cell.holder = CellHolder()
    var item: CellItem? = CellItem("Ada")
    item?.detail = CellDetail()
    cell.holder?.item = item
    let seen = Recorder<String?>()
    let token = cell.observe(\.holder?.item?.detail?.text, options: [.new, .deallocation]) { _, change in
      seen.append(change.newValue!)
    }
    item = nil
    #expect(seen.elements == [nil])
    _ = token
  }

  @Test("the observed object freed ends the observation with nothing delivered")
  func rootFreed() {
    var cell: WeakCell? = WeakCell()
    let item = CellItem("Ada")
    cell?.item = item
    let count = Counter()
    let token = cell!.observe(\.item?.name, options: [.new, .deallocation]) { _, _ in count.increment() }
    cell = nil
    #expect(count.count == 0)
    #expect(!token.isActive)
  }

  @Test("two keys read on the freed object give one change, not one per registration")
  func oneChangePerFreedObject() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    item?.detail = CellDetail()
    cell.item = item
    let seen = Recorder<String>()
    let token = withKeyValueObservation(of: { "\(cell.item?.name ?? "-") \(cell.item?.detail?.text ?? "-")" },
      options: [.old, .new, .deallocation]) { change in
      seen.append("\(change.oldValue ?? "?") → \(change.newValue ?? "?")")
    }
    item = nil
    #expect(seen.elements == ["Ada detail → - -"])
    _ = token
  }

  @Test("an object freed by the change of a link it is observed through is that change, once")
  func freedByTheObservedChange() {
    let cell = WeakCell()
    cell.holder = CellHolder()
    let item = CellItem("Ada")
    cell.holder?.item = item
    let seen = Recorder<String?>()
    let token = cell.observe(\.holder?.item?.name, options: [.new, .deallocation]) { _, change in
      seen.append(change.newValue!)
    }
    cell.holder = nil  // frees the holder inside the setter's change
    #expect(seen.elements == [nil])
    _ = token
  }

  @Test("a classic observer by string hears a freed link, with old and new in the dictionary")
  func classicStringKeyPath() throws {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let log = ChangeLog()
    try cell.addObserver(log, forKeyPath: "item.name", options: [.old, .new, .deallocation])
    item = nil
    #expect(log.count == 1)
    #expect(log.last?.kind == .setting)
    #expect(log.last?.change[.old] as? String == "Ada")
    #expect(log.last?.keys == ["kind", "new", "old"])
    #expect(log.last?.change[.new] as? String == nil, "the key is there, holding nil")
    cell.removeObserver(log, forKeyPath: "item.name")
  }

  @Test("a classic observer of the weak property itself, by string, hears its object freed")
  func classicStringWeakProperty() throws {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let log = ChangeLog()
    try cell.addObserver(log, forKeyPath: "item", options: [.new, .deallocation])
    item = nil
    #expect(log.count == 1)
    #expect(log.last?.keys == ["kind", "new"])
    #expect(log.last?.change[.new] as? CellItem == nil)
    let next = CellItem("Lin")
    cell.item = next
    #expect(log.count == 2)
    #expect(log.last?.change[.new] as? CellItem === next)
    cell.removeObserver(log, forKeyPath: "item")
  }

  @Test("a controller passes the option on, for key paths and for strings")
  func controller() throws {
    let owner = NSObject()
    let controller = KVOController(observer: owner)
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let typed = Recorder<String?>()
    let byString = Counter()
    controller.observe(cell, \.item?.name, options: [.new, .deallocation]) { _, _, change in
      typed.append(change.newValue!)
    }
    try controller.observe(cell, keyPath: "item.name", options: [.new, .deallocation]) { _, _, _ in
      byString.increment()
    }
    item = nil
    #expect(typed.elements == [nil])
    #expect(byString.count == 1)
  }

  @Test("changes(for:) yields the freed link's change and finishes when the object is freed")
  func changesSequence() async {
    var cell: WeakCell? = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell?.item = item
    let changes = cell!.changes(for: \.item?.name, options: [.old, .new, .deallocation])
    item = nil
    cell = nil
    var seen: [String] = []
    for await change in changes {
      seen.append("\(change.oldValue.map { $0 ?? "nil" } ?? "-") → \(change.newValue.map { $0 ?? "nil" } ?? "-")")
    }
    #expect(seen == ["Ada → nil"])
  }

  @Test("values(for:options:) yields nil when the link's object is freed")
  func valuesSequence() async {
    var cell: WeakCell? = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell?.item = item
    let values = cell!.values(for: \.item?.name, includingDeallocation: true, bufferingPolicy: .unbounded)
    item = nil
    cell = nil
    var seen: [String?] = []
    for await value in values { seen.append(value) }
    #expect(seen == ["Ada", nil])
  }

  @Test("a tracked closure runs again when an object it read is freed, only with the option")
  func trackedClosure() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let heard = Recorder<String>()
    let unheard = Recorder<String>()
    let hearing = withKeyValueObservation(includingDeallocation: true) { heard.append(cell.item?.name ?? "—") }
    let deaf = withKeyValueObservation { unheard.append(cell.item?.name ?? "—") }
    item = nil
    #expect(heard.elements == ["Ada", "—"])
    #expect(unheard.elements == ["Ada"])
    var shortLived: CellItem? = CellItem("short-lived")
    cell.item = shortLived  // both hear the write, only one the freeing
    shortLived = nil
    #expect(heard.elements == ["Ada", "—", "short-lived", "—"])
    #expect(unheard.elements == ["Ada", "short-lived"])
    _ = (hearing, deaf, shortLived)
  }

  @Test("a tracked value hears a freed link, with and without .old")
  func trackedValue() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let fromObserving = Recorder<String>()
    let fromTracking = Recorder<String>()
    let first = withKeyValueObservation(of: { cell.item?.name }, options: [.old, .new, .deallocation]) { change in
      fromObserving.append("\(change.oldValue.map { $0 ?? "nil" } ?? "-")→\(change.newValue.map { $0 ?? "nil" } ?? "-")")
    }
    let second = withKeyValueObservation(of: { cell.item?.name }, options: [.new, .deallocation]) { change in
      fromTracking.append(change.newValue.map { $0 ?? "nil" } ?? "-")
    }
    item = nil
    #expect(fromObserving.elements == ["Ada→nil"])
    #expect(fromTracking.elements == ["nil"])
    _ = (first, second)
  }

  @Test("a binding writes the placeholder when the source's link object is freed")
  func bindingCarriesFreedLink() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let label = PlainLabel()
    let token = cell.bind(\.item?.name, to: \.text, on: label) { $0 ?? "—" }
    #expect(label.text == "Ada")
    item = nil
    #expect(label.text == "—")
    _ = token
  }

  @Test("a plain class on the path is reported: nothing tells when it is freed")
  func plainClassReported() {
    let cell = UnmarkedThemeCell()
    let theme = UnmarkedTheme()
    cell.theme = theme
    var token: KeyValueObservation?
    let reported = capturingDiagnostics {
      token = cell.observe(\.theme, options: [.new, .deallocation]) { _, _ in }
    }
    #expect(reported.map(\.kind) == [.unheardDeallocation])
    #expect(reported.first?.message.contains("UnmarkedTheme is not @KeyValueObservable") == true)
    let quiet = capturingDiagnostics {
      _ = WeakCell().observe(\.item?.name, options: [.new, .deallocation]) { _, _ in }
      _ = cell.observe(\.theme, options: .new) { _, _ in }
    }
    #expect(quiet.isEmpty)
    _ = token
  }

  @Test("a class of the user's is named to mark; Foundation's NSObject, which nobody can mark, is not")
  func reportSaysWhatCanBeDone() {
    let cell = UnmarkedThemeCell()
    let theme = UnmarkedTheme()
    cell.theme = theme
    let plain = capturingDiagnostics {
      _ = cell.observe(\.theme, options: [.new, .deallocation]) { _, _ in }
    }
    #expect(plain.first?.message.contains("mark UnmarkedTheme @KeyValueObservable") == true, "\(plain)")
    let holder = FoundationDelegateCell()
    let delegate = NSObject()
    holder.delegate = delegate
    let foundation = capturingDiagnostics {
      _ = holder.observe(\.delegate, options: [.new, .deallocation]) { _, _ in }
    }
    let message = foundation.first?.message ?? ""
    #expect(foundation.map(\.kind) == [.unheardDeallocation])
    #expect(!message.contains("mark NSObject"), "advises what cannot be done: \(message)")
    #expect(message.contains("NSObject is "), "\(message)")
    #expect(message.contains("which cannot be marked: hold it strongly"), "\(message)")
    withExtendedLifetime((theme, delegate)) {}
  }

  @Test("a plain object on a string path is reported too")
  func plainClassReportedByString() throws {
    let cell = UnmarkedThemeCell()
    let theme = UnmarkedTheme()
    cell.theme = theme
    let log = ChangeLog()
    let reported = try capturingDiagnostics {
      try cell.addObserver(log, forKeyPath: "theme", options: [.new, .deallocation])
    }
    #expect(reported.map(\.kind) == [.unheardDeallocation])
    cell.removeObserver(log, forKeyPath: "theme")
  }

  @Test("objects freed on other threads while this one writes: each change is heard, the last value is nil")
  func freedOnOtherThreads() {
    for _ in 0..<200 {
      let cell = WeakCell()
      let item = HandedOver(CellItem("start"))
      cell.item = item.value
      let last = Recorder<String?>()
      let token = cell.observe(\.item?.name, options: [.new, .deallocation]) { _, change in
        last.append(change.newValue!)
      }
      let released = DispatchSemaphore(value: 0)
      onNewThread {
        item.value = nil
        released.signal()
      }
      for index in 0..<20 { cell.title = "\(index)"; cell.item?.name = "w\(index)" }
      released.wait()
      #expect(cell.item == nil)
      #expect(last.elements.last == .some(nil))
      _ = token
    }
  }

  @Test("observationInfo names what the observation waits to hear freed, and the graph draws no extra edge")
  func describedInObservationInfo() {
    let cell = WeakCell()
    let item = CellItem("Ada")
    cell.item = item
    let token = cell.observe(\.item, options: [.new, .deallocation]) { _, _ in }
    let info = cell.observationInfo
    #expect(info.count == 1)
    #expect(info.first?.dependencies == ["item", "CellItem.deinit"])
    #expect(info.first?.options.contains(.deallocation) == true)
    #expect("\(info.first?.options ?? [])" == "[.new, .deallocation]")
    _ = token
  }

  @Test("an observer, a tracked closure and a binding on one weak link hear a to-many change, then the freeing, once each")
  func freedTogetherWithToManyTrackedAndBound() {
    let cell = WeakCell()
    var item: CellItem? = CellItem("Ada")
    cell.item = item
    let tags = Recorder<[String]?>()
    let kinds = Recorder<KeyValueChange>()
    let observed = cell.observe(\.item?.tags, options: [.new, .deallocation]) { _, change in
      tags.append(change.newValue!)
      kinds.append(change.kind)
    }
    let counts = Recorder<Int>()
    let tracked = withKeyValueObservation(includingDeallocation: true) { counts.append(cell.item?.tags.count ?? -1) }
    let label = PlainLabel()
    let bound = cell.bind(\.item?.name, to: \.text, on: label) { $0 ?? "—" }
    item?.mutableArrayValue(for: \.tags).append("pen")
    #expect(tags.elements == [["pen"]])
    #expect(counts.elements == [0, 1])
    item = nil
    #expect(tags.elements == [["pen"], nil])
    #expect(kinds.elements == [.setting, .setting], "a chain's change is a setting of its value")
    #expect(counts.elements == [0, 1, -1])
    #expect(label.text == "—")
    _ = (observed, tracked, bound)
  }
}

/// A value a test hands to another thread to let go of.
private final class HandedOver<Value>: @unchecked Sendable {
  // @unchecked Sendable: set on one thread, then read after a `Latch`.
  var value: Value?
  init(_ value: Value) { self.value = value }
}
