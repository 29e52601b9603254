import Dispatch
import Testing

@testable import KeyValueObserving

@Suite("Callback gate: what lets unobserve promise no callback after it returns")
struct CallbackGateTests {
  @Test("closing waits for a callback running on another thread, and none passes afterwards")
  func closeWaitsForOtherThreads() {
    let gate = CallbackGate()
    let order = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let closed = DispatchSemaphore(value: 0)
    onNewThread {
      gate.pass {
        entered.signal()
        release.wait()
        order.append("callback returned")
      }
    }
    entered.wait()
    onNewThread {
      gate.close()
      order.append("close returned")
      closed.signal()
    }
    // The closing thread has marked the gate closed and is now waiting.
    while !gate.isClosed {}
    release.signal()
    closed.wait()
    #expect(order.elements == ["callback returned", "close returned"])
    #expect(!gate.pass { order.append("late") })
    #expect(order.count == 2)
  }

  @Test("the latch a waiting closer made goes with the gate")
  func latchFreedWithGate() {
    weak var madeLatch: Latch?
    do {
      let gate = CallbackGate()
      let entered = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let closed = DispatchSemaphore(value: 0)
      let passed = DispatchSemaphore(value: 0)
      // Unowned: a thread lets go of what its closure captured only after
      // it signals, and the gate must be freed at the end of this scope.
      onNewThread { [unowned gate] in
        gate.pass {
          entered.signal()
          release.wait()
        }
        passed.signal()
      }
      entered.wait()
      onNewThread { [unowned gate] in
        gate.close()
        closed.signal()
      }
      while !gate.isClosed {}
      release.signal()
      closed.wait()
      passed.wait()
      // A callback was past the gate when it closed: the closer made a latch.
      madeLatch = gate.latch.loadObject(Latch.self, ordering: .acquiring)?.takeUnretainedValue()
      #expect(madeLatch != nil)
    }
    #expect(madeLatch == nil, "the gate released its latch")
  }

  @Test("closing from inside the gate's own callback does not wait for itself")
  func closeFromInside() {
    let gate = CallbackGate()
    var ran = false
    let passed = gate.pass {
      gate.close()
      ran = true
    }
    #expect(passed && ran)
    #expect(gate.isClosed)
  }

  @Test("closing from inside another gate's callback stops new callbacks without waiting for a running one")
  func closeFromInsideAnotherCallback() {
    let gate = CallbackGate()
    let other = CallbackGate()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    onNewThread {
      gate.pass {
        entered.signal()
        release.wait()
      }
      finished.signal()
    }
    entered.wait()
    other.pass { gate.close() }  // returns although gate's callback still runs
    #expect(gate.isClosed)
    #expect(!gate.pass {})
    release.signal()
    finished.wait()
  }

  @Test("closing with nothing running returns at once, repeatedly")
  func closeIdle() {
    let gate = CallbackGate()
    gate.close()
    gate.close()
    #expect(gate.isClosed)
    #expect(!gate.pass {})
  }
}
