import Dispatch
import KeyValueObserving
import Testing

/// Many threads doing everything at once, every kind of registration
/// together; exact counts where the rules define them. Run under the thread
/// sanitizer in CI.
@Suite("Stress: every kind of registration, on many threads at once")
struct StressTests {
  @Test("one writer, three threads churning every kind of registration: the steady ones miss nothing")
  func churnAroundSteadyObservers() throws {
    let writes = 2_000
    let gauge = Gauge()
    let steadyToken = Counter()
    let steadyClassic = CountingObserver()
    let steadyController = Counter()
    let steadyQueue = Counter()
    let queueDone = DispatchSemaphore(value: 0)
    let owner = Marker()
    let kvo = KVOController(observer: owner)
    let token = gauge.observe(\.level) { _, _ in steadyToken.increment() }
    try gauge.addObserver(steadyClassic, forKeyPath: "level")
    kvo.observe(gauge, \.level) { _, _, _ in steadyController.increment() }
    let queued = gauge.observe(\.level, options: .new, on: DispatchQueue(label: "stress")) { _, change in
      steadyQueue.increment()
      if change.newValue == writes { queueDone.signal() }
    }
    let finished = Counter()

    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      if thread == 0 {
        for level in 1...writes { gauge.level = level }
        finished.increment()
        return
      }
      var round = 0
      while finished.count == 0 || round < 50 {
        round += 1
        switch (thread + round) % 4 {
        case 0:
          let token = gauge.observe(\.level, options: [.old, .new, .prior]) { _, _ in }
          token.invalidate()
        case 1:
          let observer = CountingObserver()
          try? gauge.addObserver(observer, forKeyPath: "level", options: .new)
          if round % 2 == 0 { gauge.removeObserver(observer, forKeyPath: "level") }
        // Otherwise the observer is freed while registered.
        case 2:
          let kvo = KVOController(observer: Marker())
          kvo.observe(gauge, \.level) { _, _, _ in }
          try? kvo.observe(gauge, keyPaths: ["level"]) { _, _, _ in }
          if round % 2 == 0 { kvo.unobserveAll() }
        default:
          let stream = gauge.changes(for: \.level)
          _ = stream
        }
      }
    }
    queueDone.wait()
    #expect(steadyToken.count == writes)
    #expect(steadyClassic.count.count == writes)
    #expect(steadyController.count == writes)
    #expect(steadyQueue.count == writes)
    withExtendedLifetime((token, kvo, queued, steadyClassic)) {}
  }

  @Test("objects created, observed every way and freed on many threads: each thread's observers count exactly")
  func objectsPerThread() throws {
    let rounds = 100
    let writes = 20
    let counts = (0..<4).map { _ in Counter() }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      let counter = counts[thread]
      for _ in 0..<rounds {
        let gauge = Gauge()
        let classic = CountingObserver()
        let owner = Marker()
        let kvo = KVOController(observer: owner, retainsObserved: false)
        let token = gauge.observe(\.level) { _, _ in counter.increment() }
        try? gauge.addObserver(classic, forKeyPath: "level")
        kvo.observe(gauge, \.level) { _, _, _ in counter.increment() }
        for level in 1...writes { gauge.level = level }
        counter.increment(by: classic.count.count)
        withExtendedLifetime((token, kvo)) {}
        // The gauge is freed here with every registration still in place.
      }
    }
    for counter in counts {
      #expect(counter.count == rounds * writes * 3)
    }
  }

  @Test("observers and controllers freed on one thread while another thread sets: no crash, none kept alive")
  func freeingWhileSetting() {
    let gauge = Gauge()
    let stop = Counter()
    let freed = Recorder<WeakObserver>()
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      if thread == 0 {
        var level = 0
        while stop.count == 0 {
          level += 1
          gauge.level = level
        }
        return
      }
      for _ in 0..<500 {
        // Freed while registered: a delivery under way on the other thread
        // may still hold it for the length of its call, never longer.
        let observer = CountingObserver()
        try? gauge.addObserver(observer, forKeyPath: "level")
        freed.append(WeakObserver(observer))
        let owner = Marker()
        var kvo: KVOController<Marker>? = KVOController(observer: owner)
        kvo!.observe(gauge, \.level) { _, _, _ in }
        kvo = nil
      }
      stop.increment()
    }
    #expect(freed.elements.allSatisfy { $0.observer == nil }, "no registration keeps its observer alive")
    _ = capturingDiagnostics { gauge.level = -1 }
    #expect(gauge.observationInfo.isEmpty, "the freed observers' registrations went at the next change")
  }
}

/// A weak reference to a classic observer, for checking it was freed.
private struct WeakObserver: @unchecked Sendable {
  // @unchecked Sendable: a weak reference the runtime reads atomically.
  weak var observer: CountingObserver?

  init(_ observer: CountingObserver) {
    self.observer = observer
  }
}
