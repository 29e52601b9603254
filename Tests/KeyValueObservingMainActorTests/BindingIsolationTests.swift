import KeyValueObserving
import Synchronization
import Testing

/// A label as a UI framework declares one: isolated to the main actor (this
/// module's default), and not observable.
final class Label {
  var text: String?
  var count = 0
}

@Suite("A binding made on an actor writes on it, and checks that it does")
struct BindingIsolationTests {
  @Test("made on the main actor, it writes a main-actor label synchronously, inside the write")
  func writesOnTheMainActor() {
    let invoice = Invoice()
    invoice.title = "Draft"
    let label = Label()
    let title = invoice.bind(\.title, to: \.text, on: label)
    #expect(label.text == "Draft", "written at once")
    invoice.title = "Sent"
    #expect(label.text == "Sent", "written before the assignment returns")
    let quantity = invoice.bind(\.quantity, to: \.text, on: label) { "× \($0)" }
    invoice.quantity = 3
    #expect(label.text == "× 3")
    withExtendedLifetime((title, quantity)) {}
  }

  @Test("two ways on the main actor: each side's change reaches the other there")
  func twoWaysOnTheMainActor() {
    let invoice = Invoice()
    let copy = Invoice()
    let token = invoice.bind(\.quantity, twoWayTo: \.unitPrice, on: copy, initialValueFrom: .target)
    copy.unitPrice = 4
    #expect(invoice.quantity == 4)
    invoice.quantity = 5
    #expect(copy.unitPrice == 5)
    token.invalidate()
  }

  @Test("made on another actor, it writes there: the check holds on that actor's executor")
  func madeOnAnotherActor() async {
    let written = await CounterBinder().bindAndChange(to: 6)
    #expect(written == 6)
  }

  @Test("made off any actor, it is not checked: any thread may change the value")
  func nonisolatedBinding() async {
    let counter = Counter()
    let copy = Counter()
    let token = Self.bindAnywhere(counter, to: copy)
    await Task.detached { counter.value = 4 }.value
    #expect(copy.value == 4)
    token.invalidate()
  }

  nonisolated static func bindAnywhere(_ counter: Counter, to copy: Counter) -> KeyValueObservation {
    counter.bind(\.value, to: \.value, on: copy)
  }

  #if DEBUG && (os(macOS) || os(Linux) || os(Windows))
    @Test("in a debug build, a change made off the binding's actor stops the process")
    func changedOffTheActor() async {
      // As for observe's check (HandlerIsolationTests): on Linux the main
      // actor's check stops through dispatch's queue assertion, which
      // prints no message of the library's, so only the stop is asserted.
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        let token = await MainActor.run {
          counter.bind(\.value, to: \.count, on: Label())
        }
        await Task.detached { counter.value = 1 }.value
        token.invalidate()
      }
    }

    @Test("in a debug build, a two-way binding's target changed off its actor stops the process")
    func targetChangedOffTheActor() async {
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        let copy = Counter()
        let token = await MainActor.run {
          counter.bind(\.value, twoWayTo: \.value, on: copy, initialValueFrom: .source)
        }
        await Task.detached { copy.value = 1 }.value
        token.invalidate()
      }
    }

    @Test("in a debug build, the stop names the actor the binding was made on")
    func stopNamesTheActor() async {
      // Only the binding's check stops the process: the write itself
      // checks nothing. The runtime's check names the actor (where it
      // returns instead of stopping, the library's message names it, and
      // the key), so the stop shows the binding checked its own actor.
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let counter = Counter()
        let token = await CounterBinder().bind(counter)
        await Task.detached { counter.value = 1 }.value
        token.invalidate()
      }
      let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(printed.contains("CounterBinder"), "\(printed)")
    }
  #endif
}

/// An actor of its own executor that binds a counter and changes it there.
actor CounterBinder {
  func bindAndChange(to value: Int) -> Int {
    let counter = Counter()
    let copy = Counter()
    let token = counter.bind(\.value, to: \.value, on: copy)
    counter.value = value
    token.invalidate()
    return copy.value
  }

  /// Binds `counter` to a counter of its own, here.
  func bind(_ counter: Counter) -> KeyValueObservation {
    counter.bind(\.value, to: \.value, on: copy)
  }

  private let copy = Counter()
}
