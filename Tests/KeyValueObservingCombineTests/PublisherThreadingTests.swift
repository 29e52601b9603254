import Dispatch
import Foundation
import KeyValueObservingCombine
import Testing

/// Subscribers shared between threads, each slot used by one thread at a time.
final class ProbeBox: @unchecked Sendable {
  var probes: [ProbeSubscriber<Int>] = []
}

@Suite("publisher(for:) across threads: one call at a time, never more than asked, nothing lost")
struct PublisherThreadingTests {
  @Test("4 threads × 250 changes at once, unlimited demand: every change sent, one call at a time")
  func concurrentChanges() {
    let profile = Profile(age: 7)
    let probe = ProbeSubscriber<Int>()
    profile.publisher(for: \.age).subscribe(probe)
    // Changes announced by hand leave the value alone, so that four threads
    // can change the key at once without racing on the model's own data.
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<250 { profile.withChange(for: \.age) {} }
    }
    #expect(probe.values.count == 1 + 1_000)
    #expect(probe.values.allSatisfy { $0 == 7 })
    #expect(probe.overlappingCalls == 0)
    probe.cancel()
  }

  @Test("bounded demand under 4 threads of changes: exactly what was asked for, then the newest")
  func boundedDemand() {
    let profile = Profile(age: 0)
    let probe = ProbeSubscriber<Int>(firstDemand: .max(10))
    profile.publisher(for: \.age).subscribe(probe)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<250 { profile.withChange(for: \.age) {} }
    }
    #expect(probe.values.count == 10)
    profile.age = 42
    probe.request(.max(5))
    #expect(probe.values.count == 11)
    #expect(probe.values.last == 42, "the newest change waited")
    #expect(probe.overlappingCalls == 0)
    probe.cancel()
  }

  @Test("subscribe, request and cancel on three threads while a fourth writes: no call past demand, all removed")
  func subscribeRequestCancelWhileWriting() {
    let profile = Profile()
    let box = ProbeBox()
    box.probes = (0..<300).map { _ in ProbeSubscriber<Int>(firstDemand: .none) }
    let subscribed = DispatchSemaphore(value: 0)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      switch thread {
      case 0:
        for age in 1...2_000 { profile.age = age }
      case 1:
        for index in 0..<300 {
          // No `.initial`: reading `age` here would race with thread 0's
          // writes to the model's own storage, which is the model's to guard.
          profile.publisher(for: \.age, options: [.new]).subscribe(box.probes[index])
          subscribed.signal()
        }
      case 2:
        for index in 0..<300 {
          subscribed.wait()
          box.probes[index].request(.max(2))
        }
      default:
        for index in 0..<300 {
          // Cancels lag the requests; some come before them.
          box.probes[max(0, index - 1)].cancel()
        }
        for probe in box.probes { probe.cancel() }
      }
    }
    for probe in box.probes { probe.cancel() }
    #expect(profile.observationInfo.isEmpty)
    #expect(box.probes.allSatisfy { $0.values.count <= 2 })
    #expect(box.probes.allSatisfy { $0.overlappingCalls == 0 })
  }
}
