import KeyValueObserving
import Testing

/// A screen that keeps its observations in a controller, on the main actor.
final class Screen {
  lazy var kvo = KVOController(observer: self)
  var quantities: [Int] = []
  var changedKeys: [String] = []

  func quantityChanged(_ invoice: Invoice, _ change: KeyValueObservedChange<Int>) {
    quantities.append(change.newValue!)
  }
}

@Suite("A controller's block registered on an actor runs on it, and checks that it does")
struct ControllerIsolationTests {
  @Test("registered on the main actor, a block touches main-actor state, inside the write")
  func blocksOnTheMainActor() throws {
    let invoice = Invoice()
    let screen = Screen()
    screen.kvo.observe(invoice, \.title, options: .new) { screen, _, change in
      screen.changedKeys.append("title \(change.newValue!)")
    }
    try screen.kvo.observe(invoice, keyPath: "status", options: .new) { screen, _, change in
      screen.changedKeys.append("status \(change[.new] as! String)")
    }
    screen.kvo.observe(invoice, \.quantity, options: .new, action: Screen.quantityChanged)
    invoice.title = "Sent"
    invoice.status = "paid"
    invoice.quantity = 2
    #expect(screen.changedKeys == ["title Sent", "status paid"])
    #expect(screen.quantities == [2])
    screen.kvo.unobserveAll()
  }

  @Test("registered on another actor, a block runs there: the check holds on that actor's executor")
  func registeredOnAnotherActor() async throws {
    let seen = try await CounterWatcher().observeAndChange(to: 3)
    #expect(seen == [3, 3])
  }

  #if DEBUG && (os(macOS) || os(Linux) || os(Windows))
    @Test("in a debug build, a change made off the block's actor stops the process")
    func changedOffTheActor() async {
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        let owner = Owner()
        let kvo = KVOController(observer: owner)
        await MainActor.run {
          kvo.observe(counter, \.value) { _, _, _ in }
        }
        await Task.detached { counter.value = 1 }.value
        kvo.unobserveAll()
      }
    }

    @Test("in a debug build, a string-keyed block's change made off its actor stops the process")
    func stringKeyChangedOffTheActor() async {
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        let owner = Owner()
        let kvo = KVOController(observer: owner)
        try await MainActor.run {
          try kvo.observe(counter, keyPath: "value") { _, _, _ in }
        }
        await Task.detached { counter.value = 1 }.value
        kvo.unobserveAll()
      }
    }

    @Test("in a debug build, the stop names the actor the block was registered on")
    func stopNamesTheActor() async {
      // As for a binding (BindingIsolationTests): the block does nothing,
      // so only the controller's check can stop the process.
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let counter = Counter()
        let watcher = CounterWatcher()
        await watcher.observe(counter)
        await Task.detached { counter.value = 1 }.value
        _ = watcher
      }
      let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(printed.contains("CounterWatcher"), "\(printed)")
    }
  #endif
}

/// An observer any thread may hold.
nonisolated final class Owner: Sendable {}

/// An actor that observes a counter through two controllers, by key path
/// and by string (one controller would take them for one key), and changes
/// it there.
actor CounterWatcher {
  private var seen: [Int] = []

  func observeAndChange(to value: Int) throws -> [Int] {
    let counter = Counter()
    let owner = Owner()
    let byKeyPath = KVOController(observer: owner)
    let byString = KVOController(observer: owner)
    byKeyPath.observe(counter, \.value, options: .new) { _, _, change in self.seen.append(change.newValue!) }
    try byString.observe(counter, keyPath: "value", options: .new) { _, _, change in self.seen.append(change[.new] as! Int) }
    counter.value = value
    byKeyPath.unobserveAll()
    byString.unobserveAll()
    return seen
  }

  private let kept = KVOController(observer: Owner())

  /// Observes `counter` here, until the actor goes.
  func observe(_ counter: Counter) {
    kept.observe(counter, \.value) { _, _, _ in }
  }
}
