import Dispatch
import Foundation
import KeyValueObserving
import Testing

/// Two real threads meeting at each window the schedule explorer forces
/// (ScheduledRaceTests): a start barrier, a random spin before one of them
/// acts, many rounds. What the explorer cannot model — the compiler's and
/// the processor's reordering, the allocator — can only show here, and
/// under the sanitizers in CI. Bounded in rounds and in seconds.
@Suite("Racing windows: two real threads at each window")
struct RacingWindowTests {
  /// Rounds per window; `KVO_RACING_ROUNDS` overrides.
  static let rounds = ProcessInfo.processInfo.environment["KVO_RACING_ROUNDS"].flatMap(Int.init) ?? 2_000
  /// The longest a window is hammered, whatever the rounds, in seconds;
  /// `KVO_RACING_SECONDS` overrides.
  static let limit: Duration = .seconds(ProcessInfo.processInfo.environment["KVO_RACING_SECONDS"].flatMap(Int.init) ?? 3)

  @Test("invalidate during a delivery: the handler's captures are released every round")
  func invalidateDuringDelivery() {
    var leaks = 0
    race { spin in
      let object = Junction()
      var captured: Junction? = Junction()
      weak let weakCaptured = captured
      let token = object.observe(\.a) { [captured] _, _ in _ = captured }
      captured = nil
      return twoThreads(
        { object.a = 1 },
        {
          spin()
          token.invalidate()
        },
        { if weakCaptured != nil { leaks += 1 } }
      )
    }
    #expect(leaks == 0)
  }

  @Test("invalidate racing invalidate inside a handler: no handler after invalidate() returns on its thread")
  func invalidateRacingInvalidate() {
    var late = 0
    race { spin in
      let object = Junction()
      let state = RaceState()
      let first = object.observe(\.a) { _, _ in
        state.second?.invalidate()
        state.returned = true
      }
      state.second = object.observe(\.a) { _, _ in
        if state.returned { state.late = true }
      }
      return twoThreads(
        {
          object.a = 1
          _ = first
        },
        {
          spin()
          state.second?.invalidate()
        },
        { if state.late { late += 1 } }
      )
    }
    #expect(late == 0)
  }

  @Test("a derived observation's token invalidated on two threads, each then writing: no handler after", arguments: DerivedKind.allCases)
  func derivedInvalidateRacingInvalidate(kind: DerivedKind) {
    var late = 0
    race { spin in
      let state = RaceState()
      let (token, writes) = kind.make { if state.hasReturned(onThisThread: ()) { state.late = true } }
      let body = { (write: () -> Void) in
        token.invalidate()
        state.markReturned()
        write()
      }
      return twoThreads(
        { body(writes[0]) },
        {
          spin()
          body(writes[1])
        },
        { if state.late { late += 1 } }
      )
    }
    #expect(late == 0)
  }

  @Test("a chain re-linked while its leaf changes: no freed link is touched (address sanitizer in CI)")
  func relinkWhileLeafChanges() {
    var notified = 0
    race { spin in
      let root = Junction()
      let leaf = Junction()
      root.link = Junction()
      let counter = RaceState()
      let token = root.observe(\.link?.a) { _, _ in counter.countOne() }
      // The chain's re-reads read what the other thread writes: the
      // model's own race, hidden from the thread sanitizer; the address
      // sanitizer still sees a freed link touched.
      return twoThreads(
        {
          ignoringDataRaces { for value in 1...4 { leaf.a = value } }
        },
        {
          spin()
          ignoringDataRaces {
            for _ in 0..<4 {
              root.link = leaf
              root.link = Junction()
            }
          }
        },
        {
          _ = token
          notified += counter.count
        }
      )
    }
    #expect(notified > 0)
  }

  @Test("two changes under way, each holding a change flag, and an invalidate: the captures are released")
  func twoChangesAndInvalidate() {
    var leaks = 0
    race { spin in
      let object = Junction()
      var captured: Junction? = Junction()
      weak let weakCaptured = captured
      // Steady observers keep each key's registrations a list, so that an
      // invalidate during a change retires a copy of it.
      let steady = [object.observe(\.a) { _, _ in }, object.observe(\.x) { _, _ in }]
      let token = object.observe(\.a) { [captured] _, _ in _ = captured }
      let other = object.observe(\.x) { [captured] _, _ in _ = captured }
      captured = nil
      return (
        [
          { object.a = 1 },
          {
            spin()
            object.x = 1
          },
          {
            spin()
            token.invalidate()
            other.invalidate()
          },
        ],
        {
          _ = steady
          if weakCaptured != nil { leaks += 1 }
        }
      )
    }
    #expect(leaks == 0)
  }

  @Test("two unobserves racing a delivery, from outside every block: neither returns while the block runs")
  func twoUnobservesRacingDelivery() {
    var early = 0
    race { spin in
      let owner = Junction()
      let object = Junction()
      let controller = KVOController(observer: owner)
      let state = RaceState()
      controller.observe(object, \.a) { _, _, _ in
        state.countOne()
        for index in 0..<Int.random(in: 0..<2_000) { blackHole(index) }
        state.countOne()
      }
      let end = {
        spin()
        controller.unobserve(object, \.a)
        // An odd count: a block started and has not returned.
        if state.count % 2 == 1 { state.late = true }
      }
      return (
        [{ object.a = 1 }, end, end],
        {
          // The controller's blocks run only while their observer lives.
          _ = owner
          if state.late { early += 1 }
        }
      )
    }
    #expect(early == 0)
  }

  /// A round of two threads.
  private func twoThreads(
    _ first: @escaping () -> Void,
    _ second: @escaping () -> Void,
    _ check: @escaping () -> Void
  ) -> (threads: [() -> Void], check: () -> Void) {
    ([first, second], check)
  }

  /// Runs `Self.rounds` rounds of the window `makeRound` makes: its
  /// bodies on threads of their own released together (those that call
  /// `spin` after a random spin), then its check on this thread.
  private func race(
    _ makeRound: (_ spin: @escaping @Sendable () -> Void) -> (threads: [() -> Void], check: () -> Void)
  ) {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<Self.rounds where clock.now - start < Self.limit {
      let spins = Int.random(in: 0..<2_000)
      let (bodies, check) = makeRound {
        var sink = 0
        for index in 0..<spins { sink &+= index }
        blackHole(sink)
      }
      let gate = StartGate(parties: bodies.count)
      let done = DispatchGroup()
      for body in bodies.map(UncheckedSendable.init) {
        done.enter()
        onNewThread {
          gate.arriveAndWait()
          body.value()
          done.leave()
        }
      }
      done.wait()
      // The bodies hold the round's objects, and are kept until the check
      // has run. An array's lifetime ends at its last use in an optimised
      // build (`Array` is `@_eagerMove`), so without this the threads'
      // closures held the last reference to an observed object, and the
      // first thread to return could free it on its way out: its deinit
      // ends the registrations and releases their captures there, after
      // `done.leave()`, while this thread checks them (release only).
      withExtendedLifetime(bodies) { check() }
    }
  }
}

/// What a racing round's threads share; each round makes its own.
private final class RaceState: @unchecked Sendable {
  var second: KeyValueObservation?
  var returned = false
  private let lateFlag = NSLock()
  private var isLate = false
  /// Set by a handler that ran too late, on either thread.
  var late: Bool {
    get { lateFlag.withLock { isLate } }
    set { lateFlag.withLock { isLate = newValue } }
  }
  private let lock = NSLock()
  private var counted = 0

  private var returnedThreads: Set<UInt> = []

  /// Notes that `invalidate()` returned on the calling thread.
  func markReturned() { lock.withLock { _ = returnedThreads.insert(currentThread()) } }
  /// Whether `invalidate()` returned on the calling thread.
  func hasReturned(onThisThread: Void) -> Bool { lock.withLock { returnedThreads.contains(currentThread()) } }

  /// Counts a notification, from either thread.
  func countOne() { lock.withLock { counted += 1 } }
  var count: Int { lock.withLock { counted } }
}

/// Releases its parties together: each spins until all have arrived.
private final class StartGate: @unchecked Sendable {
  private let lock = NSLock()
  private var arrived = 0
  private let parties: Int

  init(parties: Int) { self.parties = parties }

  func arriveAndWait() {
    lock.withLock { arrived += 1 }
    while lock.withLock({ arrived }) < parties {}
  }
}

@inline(never)
private func blackHole(_ value: Int) {
  _ = value
}
