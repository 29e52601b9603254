// Observes every model of `Shared/Models` the way a client does. Compiled
// in each configuration of the matrix; in the library-evolution one, from
// another module than the models'.
import Foundation
import KeyValueObserving
import Observation
import Testing

#if MODELS_IN_ANOTHER_MODULE
  import DistributedModels
#endif

/// What handlers saw, for the checks to compare; `Sendable` by a lock so
/// that a `@Sendable` `onChange` may write it in every configuration.
nonisolated final class Seen: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []

  func add(_ entry: String) {
    lock.lock()
    entries.append(entry)
    lock.unlock()
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return entries
  }
}

@Suite("A client observes every member shape")
struct StoreChecks {
  @Test("a stored property notifies with old and new values; its observers still run")
  func storedWithObservers() {
    let order = Order()
    let seen = Seen()
    let token = order.observe(\.note, options: [.old, .new, .prior]) { _, change in
      seen.add(change.isPrior ? "prior \(change.oldValue!)" : "\(change.oldValue!) → \(change.newValue!)")
    }
    order.note = "gift"
    #expect(seen.all == ["prior ", " → gift"])
    #expect(order.noteWillSets == 1 && order.noteDidSets == 1)
    token.invalidate()
  }

  @Test("a computed property over to-many items notifies when an item's property changes")
  func computedOverItems() {
    let order = Order()
    let pen = LineItem("pen", price: 2)
    order.items = [pen]
    let seen = Seen()
    let token = order.observe(\.total, options: [.initial, .new]) { _, change in
      seen.add("\(change.newValue!)")
    }
    pen.quantity = 3
    order.mutableArrayValue(for: \.items).append(LineItem("ink", price: 5))
    #expect(seen.all == ["2", "6", "11"])
    #expect(order.summary == "#0: 2 items")
    #expect((try? order.checkedTotal) == 11)
    token.invalidate()
  }

  @Test("to-many changes carry their kind and indexes; a set proxy its elements")
  func toMany() {
    let order = Order()
    let seen = Seen()
    let tokens = [
      order.observe(\.items, options: [.new]) { _, change in
        seen.add("items \(change.kind) \(change.newValue?.map(\.name) ?? [])")
      },
      order.observe(\.tags, options: [.new]) { _, change in
        seen.add("tags \(change.kind) \(change.newValue?.sorted() ?? [])")
      },
    ]
    order.mutableArrayValue(for: \.items).append(LineItem("cup", price: 1))
    order.mutableSetValue(for: \.tags).insert("fragile")
    #expect(seen.all == ["items insertion [\"cup\"]", "tags insertion [\"fragile\"]"])
    tokens.forEach { $0.invalidate() }
  }

  @Test("a chain through optional links follows a replaced link")
  func optionalChain() {
    let order = Order()
    let seen = Seen()
    let token = order.observe(\.customer?.address?.city, options: [.new]) { _, change in
      seen.add(String(describing: change.newValue ?? nil))
    }
    let ada = Customer(name: "Ada")
    order.customer = ada
    ada.address = Address(city: "Paris")
    ada.address?.city = "Lyon"
    #expect(seen.all == ["nil", "Optional(\"Paris\")", "Optional(\"Lyon\")"])
    token.invalidate()
  }

  @Test("a link whose initial value calls an initializer is made once, and observed")
  func initializedLink() throws {
    let ada = Customer(name: "Ada")
    #expect(ada.billing === ada.billing)
    let seen = Seen()
    let token = ada.observe(\.billing.city, options: [.new]) { _, change in seen.add(change.newValue ?? "") }
    ada.billing.city = "Lyon"
    ada.billing = Address(city: "Nice")
    #expect(seen.all == ["Lyon", "Nice"])
    #expect(try ada.value(forKeyPath: "billing.city") as? String == "Nice")
    token.invalidate()
  }

  @Test("a chain through a weak link reads nil once its object is freed")
  func weakChain() {
    let order = Order()
    var store: Store? = Store()
    store!.name = "North"
    order.store = store
    #expect(order.store?.name == "North")
    let seen = Seen()
    let token = order.observe(\.store?.name, options: [.new]) { _, change in
      seen.add(String(describing: change.newValue ?? nil))
    }
    store!.name = "South"
    store = nil
    #expect(order.store == nil)
    #expect(seen.all == ["Optional(\"South\")"])
    token.invalidate()
  }

  @Test("a class that declares Observable is tracked, and observable by key path")
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  func observationTracking() {
    let catalog = Catalog()
    let fired = Seen()
    withObservationTracking {
      _ = catalog.itemCount
    } onChange: {
      fired.add("changed")
    }
    let seen = Seen()
    let token = catalog.observe(\.itemCount, options: [.new]) { _, change in
      seen.add("\(change.newValue!)")
    }
    catalog.items.append(LineItem("pen", price: 1))
    #expect(fired.all == ["changed"])
    #expect(seen.all == ["1"])
    token.invalidate()
  }

  @Test("a subclass notifies its own keys and its superclass's, computed ones included")
  func subclass() {
    let draft = Draft()
    let seen = Seen()
    let tokens = [
      draft.observe(\.label, options: [.new]) { _, change in seen.add(change.newValue!) },
      draft.observe(\.wordCount, options: [.new]) { _, change in seen.add("\(change.newValue!)") },
    ]
    draft.title = "Plan B"
    draft.revision = 2
    #expect(seen.all == ["Plan B r0", "2", "Plan B r2"])
    tokens.forEach { $0.invalidate() }
  }

  @Test("a generic class is observable")
  func generic() {
    let slot = Slot([1, 2])
    let seen = Seen()
    let token = slot.observe(\.value, options: [.old, .new]) { _, change in
      seen.add("\(change.oldValue!) → \(change.newValue!)")
    }
    slot.value.append(3)
    #expect(seen.all == ["[1, 2] → [1, 2, 3]"])
    token.invalidate()
  }

  // A module interface holds no `package` declarations: the check made
  // against the models' interface alone leaves this one out.
  #if !MODELS_FROM_INTERFACE
    @Test("a package model is observable across the package")
    func packageModel() {
      let ledger = Ledger()
      let seen = Seen()
      let token = ledger.observe(\.isOverdrawn, options: [.new]) { _, change in seen.add("\(change.newValue!)") }
      ledger.balance = -5
      #expect(seen.all == ["true"])
      token.invalidate()
    }
  #endif

  @Test("a declared dependency notifies; an ignored property cannot be observed")
  func declaredDependency() throws {
    let thermometer = Thermometer()
    let seen = Seen()
    let token = thermometer.observe(\.reading, options: [.new]) { _, change in seen.add(change.newValue!) }
    thermometer.celsius = 20
    #expect(seen.all == ["20.0 C"])
    #expect(throws: KeyValueCodingError.self) { try thermometer.addObserver(Recorder(), forKeyPath: "unit") }
    token.invalidate()
  }

  @Test("string keys read, write and observe; a constant reads")
  func stringKeys() throws {
    let order = Order()
    let observer = Recorder()
    try order.addObserver(observer, forKeyPath: "customer.name", options: [.new])
    try order.setValue(Customer(name: "Lin"), forKey: "customer")
    try order.setValue(7, forKey: "number")
    #expect(try order.value(forKeyPath: "customer.name") as? String == "Lin")
    #expect(try order.value(forKey: "createdBy") as? String == "matrix")
    #expect(try order.value(forKey: "summary") as? String == "#7: 0 items")
    #expect(observer.seen.all == ["customer.name Lin"])
    #expect(order.removeObserver(observer, forKeyPath: "customer.name"))
  }

  @Test("a Codable model encodes under its properties' names")
  func codable() throws {
    let profile = Profile()
    profile.handle = "ada"
    profile.followers = 3
    let data = try JSONEncoder().encode(profile)
    let decoded = try JSONDecoder().decode(Profile.self, from: data)
    #expect(decoded.handle == "ada" && decoded.followers == 3)
  }

  @Test("a loop over a key's changes ends when its task is cancelled")
  func asyncSequence() async {
    let order = Order()
    let seen = Seen()
    let stream = order.changes(for: \.number, options: [.initial, .new])
    order.number = 1
    for await change in stream {
      seen.add("\(change.newValue!)")
      if change.newValue == 1 { break }
    }
    #expect(seen.all == ["0", "1"])
  }

  @Test("a controller owned by its observer observes until unobserved")
  func controller() {
    let owner = Recorder()
    let order = Order()
    let controller = KVOController(observer: owner)
    controller.observe(order, \.number, options: [.new]) { owner, _, change in
      owner.seen.add("number \(change.newValue!)")
    }
    order.number = 4
    controller.unobserveAll()
    order.number = 5
    #expect(owner.seen.all == ["number 4"])
  }
}

/// A classic observer, as Objective-C code names one.
final class Recorder: KeyValueObserver {
  let seen = Seen()

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    seen.add("\(keyPath) \(change[.new] ?? "nil")")
  }
}
