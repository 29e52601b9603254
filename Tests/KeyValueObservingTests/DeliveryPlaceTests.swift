import Dispatch
import KeyValueObserving
import Testing

@Suite("Delivery on a chosen queue or on the main actor")
struct DeliveryPlaceTests {
  @Test("a concurrent queue receives every change once, in order")
  func queueOrder() {
    let gauge = Gauge()
    let received = Recorder<Int>()
    let done = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "delivery", attributes: .concurrent)
    let token = gauge.observe(\.level, options: .new, on: queue) { _, change in
      received.append(change.newValue!)
      if change.newValue == 500 { done.signal() }
    }
    for level in 1...500 { gauge.level = level }
    done.wait()
    #expect(received.elements == Array(1...500))
    withExtendedLifetime(token) {}
  }

  @Test("a change waiting for the queue is not delivered once the token is invalidated")
  func invalidatedBeforeDelivery() {
    let gauge = Gauge()
    let received = Recorder<Int>()
    let queue = DispatchQueue(label: "blocked")
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let token = gauge.observe(\.level, options: .new, on: queue) { _, change in
      received.append(change.newValue!)
    }
    gauge.level = 1
    gauge.level = 2
    token.invalidate()
    release.signal()
    queue.sync {}
    #expect(received.count == 0)
  }

  @Test("invalidating inside a queued handler stops the rest of its batch")
  func invalidatedInsideHandler() {
    let gauge = Gauge()
    let received = Recorder<Int>()
    let queue = DispatchQueue(label: "serial")
    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    let box = TokenBox()
    box.tokens.append(
      gauge.observe(\.level, options: .new, on: queue) { _, change in
        received.append(change.newValue!)
        box.tokens.first?.invalidate()
      })
    for level in 1...3 { gauge.level = level }
    release.signal()
    queue.sync {}
    #expect(received.elements == [1])
  }

  @Test("the main actor receives each change in order, and nothing after invalidation")
  @MainActor
  func mainActor() async {
    let gauge = Gauge()
    var received: [Int] = []
    let (reached, reachedContinuation) = AsyncStream.makeStream(of: Void.self)
    let token = gauge.observeOnMainActor(\.level, options: .new) { _, change in
      MainActor.assertIsolated()
      received.append(change.newValue!)
      if received.count == 3 { reachedContinuation.yield() }
    }
    gauge.level = 1
    gauge.level = 2
    gauge.level = 3
    for await _ in reached { break }
    #expect(received == [1, 2, 3])

    gauge.level = 4
    token.invalidate()
    // A later delivery to the main actor, scheduled after the one for 4,
    // has run when this resumes.
    let (marker, markerContinuation) = AsyncStream.makeStream(of: Void.self)
    let other = Gauge()
    let second = other.observeOnMainActor(\.level) { _, _ in markerContinuation.yield() }
    other.level = 1
    for await _ in marker { break }
    #expect(received == [1, 2, 3])
    withExtendedLifetime(second) {}
  }

  @Test("a @MainActor class: observe, changes and main-actor delivery from the main actor")
  @MainActor
  func mainActorClass() async {
    let model = MainActorModel()
    var titles: [String] = []
    let token = model.observe(\.title, options: .new) { model, change in titles.append(change.newValue!) }
    var shouts = model.values(for: \.shout).makeAsyncIterator()
    #expect(await shouts.next() == "")
    model.title = "hi"
    #expect(titles == ["hi"])
    #expect(await shouts.next() == "HI")
    withExtendedLifetime(token) {}
  }

  @Test("a non-Sendable object confined to one task: changes(for:) consumed in that task")
  func confinedObject() async {
    let person = Person()
    let ages = person.changes(for: \.age)
    person.age = 1
    var iterator = ages.makeAsyncIterator()
    #expect(await iterator.next()?.newValue == 1)
  }

  @Test("a Sendable object shared across tasks: one task writes, another consumes")
  func sharedAcrossTasks() async {
    let gauge = Gauge()
    let levels = gauge.changes(for: \.level)
    let writer = Task.detached {
      for level in 1...100 { gauge.level = level }
    }
    await writer.value
    var seen: [Int] = []
    for await change in levels {
      seen.append(change.newValue!)
      if seen.count == 100 { break }
    }
    #expect(seen == Array(1...100))
  }
}
