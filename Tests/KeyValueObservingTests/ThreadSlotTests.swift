import Dispatch
import Testing

@testable import KeyValueObserving

@Suite("Thread slots: the per-thread pointers the runtime keeps in the shims")
struct ThreadSlotTests {
  @Test("every slot the runtime names has its place in the shims")
  func everySlotHasAPlace() {
    #expect(ThreadSlot.allCases.count == kvoThreadSlotCount())
  }

  @Test("a slot set on one thread is unset on another, and each keeps its own")
  func slotsArePerThread() {
    // The last slot, so that an array shorter than the cases would show.
    let slot = ThreadLocal(ThreadSlot.allCases.last!)
    let saved = slot.value
    defer { slot.value = saved }
    slot.value = UnsafeMutableRawPointer(bitPattern: 0x1000)
    // Pointers are not Sendable: the other thread reports their bits.
    let seen = Recorder<UInt>()
    let done = DispatchSemaphore(value: 0)
    onNewThread {
      seen.append(UInt(bitPattern: slot.value))
      slot.value = UnsafeMutableRawPointer(bitPattern: 0x2000)
      seen.append(UInt(bitPattern: slot.value))
      done.signal()
    }
    done.wait()
    #expect(seen.elements == [0, 0x2000])
    #expect(UInt(bitPattern: slot.value) == 0x1000)
  }

  @Test("a thread's identity is its own and stays the same")
  func threadIdentity() {
    let here = currentThreadIdentity()
    let there = Recorder<UInt>()
    let done = DispatchSemaphore(value: 0)
    onNewThread {
      there.append(currentThreadIdentity())
      there.append(currentThreadIdentity())
      done.signal()
    }
    done.wait()
    #expect(here != 0 && here == currentThreadIdentity())
    #expect(there.elements.count == 2 && there.elements[0] == there.elements[1])
    #expect(there.elements[0] != here)
  }
}
