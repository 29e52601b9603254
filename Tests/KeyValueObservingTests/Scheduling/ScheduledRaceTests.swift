import Foundation
import KeyValueObserving
import Testing


/// Where a scenario's threads leave what the check reads. Touched by one
/// thread at a time: the explorer runs them so.
final class ScenarioNotes: @unchecked Sendable {
  weak var captured: AnyObject?
  var token: KeyValueObservation?
  var tokens: [KeyValueObservation] = []
  /// The threads whose `invalidate()` returned.
  var invalidated: Set<UInt> = []
  var broken: String?

  /// Marks `message` as the promise broken, once.
  func breaks(_ message: String) {
    if broken == nil { broken = message }
  }
}



/// The windows issue 63 found, each forced by the schedule explorer: the
/// regression test of each fix, which failed before it.
@Suite("Scheduled: the four races, forced", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledRaceTests {
  @Test("a change ending while another thread invalidates releases the handler's captures")
  func invalidateDuringDeliveryReleasesCaptures() {
    ScheduleExplorer("invalidate during a delivery").explore {
      let notes = ScenarioNotes()
      let object = Junction()
      let captured = Junction()
      notes.captured = captured
      notes.token = object.observe(\.a) { _, _ in _ = captured }
      return ScenarioRun(
        threads: [{ object.a = 1 }, { notes.token?.invalidate() }],
        check: { notes.captured == nil ? nil : "the handler's capture outlived invalidate() and the change" }
      )
    }
  }

  @Test("a handler that captures its observed object is freed with it after invalidate()")
  func invalidateDuringDeliveryBreaksTheCycle() {
    ScheduleExplorer("invalidate during a delivery, cycle").explore {
      let notes = ScenarioNotes()
      var object: Junction? = Junction()
      notes.captured = object
      let cycle = object!.observe(\.x) { [object] _, _ in _ = object }
      // The writing thread holds the object only while it writes.
      let writer = UncheckedSendable(HandedReference(object.take()!))
      return ScenarioRun(
        threads: [{ writer.value.take()?.x = 1 }, { cycle.invalidate() }],
        check: { notes.captured == nil ? nil : "the observed object, captured by its handler, leaked" }
      )
    }
  }

  @Test("invalidate() racing invalidate(): no handler runs after either returns on its thread")
  func invalidateRacingInvalidate() {
    ScheduleExplorer("invalidate racing invalidate").explore {
      let notes = ScenarioNotes()
      let object = Junction()
      let first = object.observe(\.a) { _, _ in
        notes.token?.invalidate()
        notes.invalidated.insert(currentThread())
      }
      notes.token = object.observe(\.a) { _, _ in
        if notes.invalidated.contains(currentThread()) {
          notes.breaks("a handler ran after invalidate() returned on its thread")
        }
      }
      return ScenarioRun(
        threads: [
          { object.a = 1 },
          {
            notes.token?.invalidate()
            notes.invalidated.insert(currentThread())
          },
        ],
        check: {
          _ = first
          return notes.broken
        }
      )
    }
  }

  @Test("a chain re-read after a release does not free a handler under the observation's lock")
  func chainInstallReleasesAfterItsLock() {
    ScheduleExplorer("chain install releases after its lock").explore {
      let object = Junction()
      let root = Junction()
      root.link = Junction()
      let notes = ScenarioNotes()
      // The chain's token is held only by the handler of `x`: freeing that
      // handler ends the chain, which takes the chain's lock.
      let chain = root.observe(\.link?.a) { _, _ in }
      let holder = object.observe(\.x) { _, _ in _ = chain }
      notes.token = holder
      return ScenarioRun(
        threads: [
          { object.x = 1 },
          {
            notes.token?.invalidate()
            notes.token = nil
            root.link = object
          },
        ],
        check: { nil }
      )
    }
  }
}

/// The fourth window: a chain's walk following a link that another
/// thread replaces, freeing what it held. The walking thread re-assigns
/// the chain's first link (an equal assignment still notifies), so its
/// did re-reads the chain link by link; the other replaces the second
/// link. Under the address sanitizer (CI), a touch of the freed object is
/// a report that fails the run.
@Suite("Scheduled: a chain re-linked while another thread walks it", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledChainWalkTests {
  @Test("the walk holds each link it follows: re-linking frees nothing it still reads")
  func relinkWhileWalking() {
    ScheduleExplorer("a chain re-linked while another thread walks it").explore {
      let root = Junction()
      let middle = Junction()
      root.link = middle
      middle.link = Junction()
      let notes = ScenarioNotes()
      var values: [Int?] = []
      notes.token = root.observe(\.link?.link?.a, options: .new) { _, change in values.append(change.newValue ?? nil) }
      return ScenarioRun(
        threads: [
          { root.link = middle },
          {
            let replacement = Junction()
            replacement.a = 1
            middle.link = replacement
          },
        ],
        check: {
          // Two threads' notifications may arrive in either order (the
          // Safety article's table): each carries a value the chain had.
          guard notes.token?.isActive == true else { return "the chain's observation ended" }
          let seen = values.compactMap { $0 }
          return seen.allSatisfy({ $0 == 0 || $0 == 1 }) && seen.count == 2 ? nil : "the chain reported \(values)"
        }
      )
    }
  }
}
