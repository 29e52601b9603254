import KeyValueObserving
import Testing

/// Each concurrency promise of the articles, as a scenario the schedule
/// explorer runs under many interleavings (the four races of issue 63 are
/// in ScheduledRaceTests).
@Suite("Scheduled: every concurrency promise", .enabled(if: SchedulePoint.areCompiledIn))
struct ScheduledPromiseTests {
  @Test("registration, removal and writes racing: a steady observer misses nothing")
  func registrationRemovalAndWrites() {
    ScheduleExplorer("registration, removal and writes racing").explore {
      let object = Junction()
      var steady: [Int] = []
      var churned: [Int] = []
      let token = object.observe(\.a, options: .new) { _, change in steady.append(change.newValue!) }
      return ScenarioRun(
        threads: [
          {
            object.a = 1
            object.a = 2
          },
          {
            let churn = object.observe(\.a, options: .new) { _, change in churned.append(change.newValue!) }
            churn.invalidate()
          },
        ],
        check: {
          _ = token
          guard steady == [1, 2] else { return "the steady observer heard \(steady)" }
          guard churned.allSatisfy({ $0 == 1 || $0 == 2 }), churned.count <= 2 else {
            return "the churned observer heard \(churned)"
          }
          return object.observationInfo.count == 1 ? nil : "registrations left: \(object.observationInfo)"
        }
      )
    }
  }

  @Test("a derived observation's token invalidated on two threads, each then writing: no handler after", arguments: DerivedKind.allCases)
  func derivedInvalidateRacingInvalidate(kind: DerivedKind) {
    ScheduleExplorer("\(kind.rawValue) invalidate racing invalidate").explore {
      let notes = ScenarioNotes()
      let (token, writes) = kind.make {
        if notes.invalidated.contains(currentThread()) {
          notes.breaks("a \(kind.rawValue)'s handler ran after invalidate() returned on its thread")
        }
      }
      let body = { (write: () -> Void) in
        token.invalidate()
        notes.invalidated.insert(currentThread())
        write()
      }
      return ScenarioRun(threads: [{ body(writes[0]) }, { body(writes[1]) }], check: { notes.broken })
    }
  }

  @Test("two changes under way and an invalidate, three threads: the captures are released")
  func twoChangesAndInvalidate() {
    ScheduleExplorer("two changes and an invalidate", randomSchedules: 200, exhaustiveLimit: 1_000).explore {
      let notes = ScenarioNotes()
      let object = Junction()
      let captured = Junction()
      notes.captured = captured
      notes.tokens = [object.observe(\.a) { _, _ in }, object.observe(\.x) { _, _ in }]
      notes.token = object.observe(\.a) { _, _ in _ = captured }
      return ScenarioRun(
        threads: [{ object.a = 1 }, { object.x = 1 }, { notes.token?.invalidate() }],
        check: { notes.captured == nil ? nil : "the handler's capture outlived invalidate() and both changes" }
      )
    }
  }

  @Test("the observed object's deinit racing a registration and a write: nothing is kept alive")
  func deinitRacingRegistration() {
    ScheduleExplorer("deinit racing a registration and a write").explore {
      let notes = ScenarioNotes()
      var object: Junction? = Junction()
      weak let weakObject = object
      let writer = UncheckedSendable(HandedReference(object.take()!))
      return ScenarioRun(
        threads: [
          { writer.value.take()?.a = 1 },
          {
            let captured = Junction()
            notes.captured = captured
            if let object = weakObject {
              notes.token = object.observe(\.a) { _, _ in _ = captured }
            }
          },
        ],
        check: {
          guard weakObject == nil else { return "the observed object outlived every reference" }
          guard notes.captured == nil else { return "the handler's capture outlived the observed object" }
          return notes.token?.isActive == true ? "the token of a freed object is active" : nil
        }
      )
    }
  }

  @Test("a tracked closure ended while a change runs it: its captures are released")
  func trackedClosureEndedDuringRun() {
    ScheduleExplorer("a tracked closure ended while a change runs it").explore {
      let notes = ScenarioNotes()
      let object = Junction()
      let captured = Junction()
      notes.captured = captured
      var runs = 0
      notes.token = withKeyValueObservation {
        _ = captured
        _ = object.a
        runs += 1
      }
      return ScenarioRun(
        threads: [{ object.a = 1 }, { notes.token?.invalidate() }],
        check: {
          guard notes.token?.isActive == false else { return "the token is active after invalidate()" }
          guard runs <= 2 else { return "the closure ran \(runs) times for one change" }
          return notes.captured == nil ? nil : "the closure's capture outlived invalidate() and the change"
        }
      )
    }
  }

  @Test("a binding's two sides written from two threads: both end equal")
  func bindingWrittenFromTwoThreads() {
    ScheduleExplorer("a binding's two sides written from two threads").explore {
      let source = Junction()
      let target = Junction()
      let token = source.bind(\.a, twoWayTo: \.a, on: target, initialValueFrom: .source)
      return ScenarioRun(
        threads: [{ source.a = 1 }, { target.a = 2 }],
        check: {
          _ = token
          guard source.a == target.a else { return "the sides differ: \(source.a) and \(target.a)" }
          return [1, 2].contains(source.a) ? nil : "the sides hold \(source.a), neither write"
        }
      )
    }
  }

  @Test("a weak link freed racing a write of its key: .deallocation hears the end, the value ends nil")
  func deallocationRacingWrites() {
    ScheduleExplorer(".deallocation frees racing writes").explore {
      let root = WeakJunction()
      var linked: Junction? = Junction()
      root.link = linked
      let handed = UncheckedSendable(HandedReference(linked.take()!))
      var last: Int?? = .none
      let token = root.observe(\.link?.a, options: [.new, .deallocation]) { _, change in last = .some(change.newValue ?? nil) }
      return ScenarioRun(
        threads: [
          {
            // Writes the linked object, then lets go of the last reference.
            handed.value.take()?.a = 5
          },
          { root.x = 1 },
        ],
        check: {
          _ = token
          guard root.link == nil else { return "the weak link still holds its object" }
          return last == .some(nil) ? nil : "the last value heard is \(String(describing: last)), not nil"
        }
      )
    }
  }

  @Test("a controller's unobserve racing a delivery: no block starts after it returns, none runs on")
  func controllerUnobserveRacingDelivery() {
    ScheduleExplorer("the controller's unobserve racing a delivery").explore {
      let owner = Junction()
      let object = Junction()
      let controller = KVOController(observer: owner)
      let state = ScenarioNotes()
      var running = false
      var unobserved = false
      controller.observe(object, \.a) { _, _, _ in
        if unobserved { state.breaks("a block started after unobserve returned") }
        running = true
        _ = object.x
        running = false
      }
      return ScenarioRun(
        threads: [
          { object.a = 1 },
          {
            controller.unobserve(object, \.a)
            unobserved = true
            if running { state.breaks("unobserve returned while a block ran") }
          },
        ],
        check: {
          // The controller's blocks run only while their observer lives.
          _ = owner
          return state.broken
        }
      )
    }
  }

  @Test("two unobserves racing a delivery, from outside every block: neither returns while the block runs")
  func twoUnobservesRacingDelivery() {
    ScheduleExplorer("two unobserves racing a delivery").explore {
      let owner = Junction()
      let object = Junction()
      let controller = KVOController(observer: owner)
      let state = ScenarioNotes()
      var running = false
      controller.observe(object, \.a) { _, _, _ in
        running = true
        _ = object.x
        running = false
      }
      let end = {
        controller.unobserve(object, \.a)
        if running { state.breaks("an unobserve returned while the block ran") }
      }
      return ScenarioRun(
        threads: [{ object.a = 1 }, end, end],
        check: {
          // The controller's blocks run only while their observer lives.
          _ = owner
          return state.broken
        }
      )
    }
  }

  @Test("changes(for:) dropped during a delivery: the registration ends")
  func changesDroppedDuringDelivery() {
    ScheduleExplorer("changes(for:) dropped during a delivery").explore {
      let object = Junction()
      let stream = UncheckedSendable(HandedReference(StreamBox(object.changes(for: \.a))))
      return ScenarioRun(
        threads: [{ object.a = 1 }, { _ = stream.value.take() }],
        check: {
          object.observationInfo.isEmpty ? nil : "registrations left after the stream went: \(object.observationInfo)"
        }
      )
    }
  }
}


/// A stream held by reference, so that one thread can let go of it.
final class StreamBox<Element: Sendable>: @unchecked Sendable {
  let stream: KeyValueObservedSequence<Element>
  init(_ stream: KeyValueObservedSequence<Element>) { self.stream = stream }
}

