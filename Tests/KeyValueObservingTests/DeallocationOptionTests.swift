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
  var detail: CellDetail?
  init(_ name: String) { self.name = name }
}

@KeyValueObservable
final class CellDetail {
  var text = "detail"
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
}
