import KeyValueObserving
import Testing

/// Whether `change` leaves the array `read` returns in the buffer it was
/// in, i.e. did not copy it.
///
/// Told by a weak reference to the buffer: it adds no strong reference, so
/// it cannot itself make a mutation copy, and it reads `nil` once the old
/// buffer is freed, even when the allocator hands the same memory out again
/// (an address compared before and after could not tell).
private func keepsBuffer(_ read: () -> [Int], _ change: () -> Void) -> Bool {
  #if canImport(Darwin)
    // A Darwin array's one stored property is a bridge object, not the
    // buffer: compare where the elements are (which cannot tell a copy
    // into memory just freed, so this check is weaker there).
    let before = read().withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    change()
    return before == read().withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  #else
    // An array's one stored property is its buffer.
    weak let before = unsafeBitCast(read(), to: AnyObject.self)
    change()
    guard let before else { return false }
    return before === unsafeBitCast(read(), to: AnyObject.self)
  #endif
}

@Suite("In-place changes: proxies and direct mutations of observed collections do not copy them")
struct InPlaceMutationTests {
  @Test("a proxy append on an observed array keeps its elements where they are", arguments: [false, true])
  func proxyAppendObserved(observed: Bool) {
    let shelf = Shelf()
    shelf.items = Array(0..<10)
    shelf.items.reserveCapacity(64)
    let (changes, token) = record(shelf, \.items, options: observed ? [.old, .new] : [])
    let proxy = shelf.mutableArrayValue(for: \.items)
    #expect(
      keepsBuffer({ shelf.items }) {
        proxy.append(10)
        proxy.insert(-1, at: 0)
        proxy.remove(at: 0)
      })
    #expect(shelf.items == Array(0...10))
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [10..<11], new: observed ? [10] : nil),
        CollectionChange(.insertion, [0..<1], new: observed ? [-1] : nil),
        CollectionChange(.removal, [0..<1], old: observed ? [-1] : nil),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("a proxy append on an array nobody observes keeps its elements where they are")
  func proxyAppendUnobserved() {
    let shelf = Shelf()
    shelf.items.reserveCapacity(64)
    #expect(keepsBuffer({ shelf.items }) { shelf.mutableArrayValue(for: \.items).append(contentsOf: [1, 2, 3]) })
    #expect(shelf.items == [1, 2, 3])
  }

  @Test("a direct append on an observed array changes it in place and is one setting")
  func directAppend() {
    let shelf = Shelf()
    shelf.items.reserveCapacity(64)
    let counts = Recorder<Int>()
    // The observer keeps only the count: a kept array would be shared, and
    // the next append would have to copy it.
    let token = shelf.observe(\.items, options: [.new]) { _, change in
      #expect(change.kind == .setting)
      counts.append(change.newValue?.count ?? -1)
    }
    #expect(
      keepsBuffer({ shelf.items }) {
        shelf.items.append(1)
        shelf.items.append(2)
      })
    #expect(counts.elements == [1, 2])
    withExtendedLifetime(token) {}
  }

  @Test("with .old, a direct append hands over the array as it was: the one copy it needs")
  func directAppendWithOld() {
    let shelf = Shelf()
    shelf.items = [1]
    let (changes, token) = record(shelf, \.items, options: [.old, .new, .prior])
    #expect(!keepsBuffer({ shelf.items }) { shelf.items.append(2) })
    #expect(
      changes.elements == [
        CollectionChange(.setting, nil, old: [1], isPrior: true),
        CollectionChange(.setting, nil, old: [1], new: [1, 2]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("a direct += on an observed string is one setting with the old and new strings")
  func directStringAppend() {
    let shelf = Shelf()
    shelf.title = "Key"
    let (changes, token) = record(shelf, \.title, options: [.old, .new])
    shelf.title += "Value"
    #expect(changes.elements == [CollectionChange(.setting, nil, old: "Key", new: "KeyValue")])
    withExtendedLifetime(token) {}
  }

  @Test("a property's own didSet runs once per proxy call, as for an assignment")
  func ownObserverRuns() {
    let shelf = Shelf()
    let (changes, token) = record(shelf, \.counted, options: [.new])
    let proxy = shelf.mutableArrayValue(for: \.counted)
    proxy.append(1)
    proxy.append(2)
    shelf.counted.append(3)
    #expect(shelf.itemsDidSet == 3)
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [0..<1], new: [1]),
        CollectionChange(.insertion, [1..<2], new: [2]),
        CollectionChange(.setting, nil, new: [1, 2, 3]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("a subclass's override runs under a proxy, whether or not the macro marked the subclass")
  func overridesRun() {
    let marked = AuditedShelf()
    let unmarked = UnmarkedAuditedShelf()
    let notified = Counter()
    let tokens = [marked, unmarked].map { shelf in
      shelf.observe(\.items) { _, _ in notified.increment() }
    }
    marked.mutableArrayValue(for: \.items).append(1)
    unmarked.mutableArrayValue(for: \.items).append(1)
    // Through the base class's static type, too.
    (marked as Shelf).mutableArrayValue(for: \.items).append(2)
    (unmarked as Shelf).mutableArrayValue(for: \.items).append(2)
    #expect(marked.overrideDidSet == 2)
    #expect(unmarked.overrideDidSet == 2)
    #expect(marked.items == [1, 2] && unmarked.items == [1, 2])
    #expect(notified.count == 4)
    withExtendedLifetime(tokens) {}
  }

  @Test("a proxy over an inherited property of a marked subclass works in place")
  func inheritedPropertyInPlace() {
    let shelf = PlainSubShelf()
    // Not empty: a notification whose new elements are the whole array
    // shares its buffer, and a recorder that keeps it makes the next
    // append copy, as any second reference would.
    shelf.items = [0]
    shelf.items.reserveCapacity(64)
    let (changes, token) = record(shelf, \.items, options: [.new])
    #expect(
      keepsBuffer({ shelf.items }) {
        shelf.mutableArrayValue(for: \.items).append(7)
        (shelf as Shelf).mutableArrayValue(for: \.items).append(8)
      })
    #expect(
      changes.elements == [
        CollectionChange(.insertion, [1..<2], new: [7]),
        CollectionChange(.insertion, [2..<3], new: [8]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("a set proxy changes the observed set in place and reports what it added and removed")
  func setProxy() {
    let shelf = Shelf()
    let (changes, token) = record(shelf, \.ids, options: [.old, .new])
    let ids = shelf.mutableSetValue(for: \.ids)
    ids.formUnion([1, 2])
    ids.remove(1)
    #expect(shelf.ids == [2])
    #expect(
      changes.elements == [
        CollectionChange(.insertion, nil, new: [1, 2]),
        CollectionChange(.removal, nil, old: [1]),
      ])
    withExtendedLifetime(token) {}
  }

  @Test("an observed append through _modify runs an override's didSet once, marked subclass or not, and notifies once")
  func modifyOnOverriddenProperty() {
    // The class's key table hands out no storage for these (an override, a
    // class it did not mark): the accessor changes a copy and assigns it
    // back without calling the overriding setter a second time.
    let marked = AuditedShelf()
    let unmarked = UnmarkedAuditedShelf()
    let plain = PlainSubShelf()
    let changes = Recorder<Change<[Int]>>()
    let tokens = [marked, unmarked, plain].map { shelf in
      shelf.items = [0]
      return shelf.observe(\.items, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    }
    for shelf in [marked, unmarked, plain] as [Shelf] {
      shelf.items.append(1)
    }
    #expect(marked.overrideDidSet == 2 && unmarked.overrideDidSet == 2)
    #expect(changes.elements == Array(repeating: Change(old: [0], new: [0, 1]), count: 3))
    withExtendedLifetime(tokens) {}
  }

  @Test("an observed += on a plain value notifies once with the old and new values")
  func modifyOnPlainValue() {
    let dial = Dial()
    let changes = Recorder<Change<Int>>()
    let token = dial.observe(\.level, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    dial.level += 5
    dial.level += 1
    #expect(changes.elements == [Change(old: 0, new: 5), Change(old: 5, new: 6)])
    withExtendedLifetime(token) {}
  }
}
