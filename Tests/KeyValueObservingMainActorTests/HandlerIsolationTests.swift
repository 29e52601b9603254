import KeyValueObserving
import Synchronization
import Testing

@Suite("A handler registered on the main actor is isolated to it")
struct HandlerIsolationTests {
  @Test("it touches main-actor state and runs synchronously, inside the write")
  func synchronousOnTheMainActor() {
    let invoice = Invoice()
    var titles: [String] = []  // main-actor state
    let token = invoice.observe(\.quantity, options: .new) { _, change in
      titles.append("quantity \(change.newValue!)")
    }
    invoice.quantity = 2
    #expect(titles == ["quantity 2"], "delivered before the assignment returns")
    invoice.quantity = 3
    #expect(titles == ["quantity 2", "quantity 3"])
    token.invalidate()
  }

  @Test("a handler registered off any actor is not checked: any thread may change the value")
  func nonisolatedRegistration() async {
    let counter = Counter()
    let seen = Latest()
    let token = Self.observeAnywhere(counter) { value in seen.value.withLock { $0 = value } }
    await Task.detached { counter.value = 4 }.value
    #expect(seen.value.withLock { $0 } == 4)
    token.invalidate()
  }

  nonisolated static func observeAnywhere(_ counter: Counter, _ record: @escaping @Sendable (Int) -> Void) -> KeyValueObservation {
    counter.observe(\.value, options: .new) { _, change in record(change.newValue!) }
  }

  #if DEBUG && (os(macOS) || os(Linux) || os(Windows))
    @Test("in a debug build, a change made off the handler's actor stops the process with a message")
    func changedOffTheActor() async {
      // The process stops in the library's check; on Linux the main actor's
      // check stops it through dispatch's queue assertion, which prints no
      // message of the library's, so only the stop is asserted.
      await #expect(processExitsWith: .failure) {
        let counter = Counter()
        let token = await MainActor.run {
          counter.observe(\.value) { _, _ in }
        }
        await Task.detached { counter.value = 1 }.value
        token.invalidate()
      }
    }
  #endif
}

/// The last value a handler on another thread saw.
nonisolated final class Latest: Sendable {
  let value = Mutex(0)
}
