import Observation

/// When and where a tracked closure (see
/// ``withKeyValueObservation(options:isolation:fileID:line:_:)``) runs
/// again after a change of what it read.
///
/// A closure runs again on the thread that made the change, at its did
/// (``When/now``), or — coalescing, or after a change only Swift
/// Observation reported — once, later, on the actor it is isolated to, for
/// every change made meanwhile (``When/later``). A change the closure makes
/// itself while it runs, on its thread, runs nothing (``When/never``): a
/// closure that writes a key it reads sees its own write, and is not run
/// again for it, forever or once.
///
/// It is also the closure's host (see ``ObservationHost``): the closure's
/// observation is filed in its storage, and its token holds that storage.
/// The observation holds it (``DerivedObservation/rerun``), its storage
/// holds the observation, until the observation ends.
@usableFromInline
final class Rerun: ObservationHost, @unchecked Sendable {
  // @unchecked Sendable: everything is immutable or atomic.

  @usableFromInline enum When { case now, later, never }

  /// The closure of ``withKeyValueObservation(options:isolation:fileID:line:_:)``,
  /// which ``callBody()`` calls; `nil` for the value form, whose read
  /// calls its own closure.
  private let body: (() -> Void)?

  /// The actor the closure is isolated to: where a job runs, and, in a
  /// debug build, where each run is checked to be.
  private let isolation: (any Actor)?

  /// Whether every run after a change waits for ``schedule(ifNoRunSince:)``.
  @usableFromInline let defers: Bool

  /// Whether each run is checked to be on ``isolation``: in a debug
  /// build, as `observe` checks its handler.
  private let checksIsolation: Bool

  /// What the job waiting to run was asked for, plus one, or 0 while no
  /// job waits: changes until it starts join it. A job is asked for
  /// ``unconditional``ly, or for the latest run whose Observation tracking
  /// asked (it runs only if no run started since): each change fires the
  /// tracking of the latest run that read the property, so the latest
  /// asks. One word, so that asking and starting need no lock.
  private let requested = AtomicUInt(0)

  private static let unconditional = Int.max

  /// How many runs started after a run that read what Observation tracks
  /// (see ``running(_:)``): a job asked for by Swift Observation, whose
  /// change a run since has seen (the same change, told through the
  /// object's own registrations), does nothing.
  private let runs = AtomicInt(0)

  /// Whether the last run read a property Swift Observation tracks, which
  /// can run the closure again though no key is registered.
  private let observationReads = AtomicFlag(false)

  /// The tracked closures running on this thread, innermost first.
  private static let running = ThreadLocal(.runningClosure)

  private struct Frame {
    let rerun: ObjectIdentifier
    let outer: UnsafeMutablePointer<Frame>?
  }

  /// Whether runs are read inside `withObservationTracking`.
  private let tracksObservationReads: Bool

  /// Where the closure was observed, for messages.
  private let site: RegistrationSite

  /// How `body` (or, with none, the value form's read), observed at
  /// `site`, isolated to `isolation`, runs again with `tracking`;
  /// `.coalesced` with no actor is reported and dropped.
  @usableFromInline
  init(body: (() -> Void)?, tracking: KeyValueTrackingOptions, isolation: (any Actor)?, site: RegistrationSite) {
    var defers = tracking.contains(.coalesced)
    if defers && isolation == nil {
      reportProblem(
        .coalescingWithoutActor,
        "withKeyValueObservation(options: .coalesced) at \(site.description ?? "a call") is isolated to no actor, so "
          + "there is no turn to coalesce changes into: it runs after each change; call it from the actor whose "
          + "turns should coalesce them (the main actor, for UI code)"
      )
      defers = false
    }
    self.body = body
    self.isolation = isolation
    self.defers = defers
    self.checksIsolation = _isDebugAssertConfiguration() && isolation != nil
    self.tracksObservationReads = !tracking.contains(.keyValueOnly)
    self.site = site
    super.init()
  }

  /// Calls the closure of ``withKeyValueObservation(options:isolation:fileID:line:_:)``:
  /// its observation's read, which a read with tracking runs inside
  /// ``run(_:)``.
  @usableFromInline
  func callBody() {
    body?()
  }

  /// Runs `body`, one run of the closure, where its derived observation
  /// reads its value with tracking (see ``running(_:)`` and
  /// ``readTrackingObservation(_:)``).
  @usableFromInline
  func run(_ body: () -> Void) {
    if checksIsolation, let checkedIsolation = isolation {
      checkedIsolation.preconditionIsolated(
        "KeyValueObserving: a closure observed with withKeyValueObservation at \(site.description ?? "a call") "
          + "runs off \(checkedIsolation), the actor it is isolated to, for a change made there; observe it with "
          + "options: .coalesced to run it on that actor whoever changes what it reads"
      )
    }
    running { readTrackingObservation(body) }
  }

  /// How many runs started so far.
  var runCount: Int { runs.load(ordering: .acquiring) }

  /// When the closure runs for a change told now, on this thread.
  @usableFromInline
  func whenToRun() -> When {
    if isRunningOnThisThread { return .never }
    return defers ? .later : .now
  }

  /// Whether a run of this closure is under way on this thread.
  var isRunningOnThisThread: Bool {
    var frame = Self.running.value?.assumingMemoryBound(to: Frame.self)
    while let current = frame {
      if current.pointee.rerun == ObjectIdentifier(self) { return true }
      frame = current.pointee.outer
    }
    return false
  }

  /// Whether the last run read a property Swift Observation tracks.
  @usableFromInline var tracksObservation: Bool { observationReads.load(ordering: .acquiring) }

  /// Runs `read` inside `withObservationTracking`, where Observation is
  /// available, so that a change of an `@Observable` class's property it
  /// read schedules a run after the change. Observation tells before the
  /// change, once; the run it asks for does nothing if another run (for
  /// the same change, told through a `@KeyValueObservable` class's own
  /// registrations) started since.
  private func readTrackingObservation(_ read: () -> Void) {
    guard tracksObservationReads, #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return read() }
    observationReads.store(false, ordering: .relaxed)
    let run = runCount
    // Observation makes the handler only when the read tracked something.
    return withObservationTracking(read, onChange: observationHandler(afterRun: run))
  }

  private func observationHandler(afterRun run: Int) -> @Sendable () -> Void {
    observationReads.store(true, ordering: .releasing)
    // Weak: Observation keeps the handler until the property changes, and
    // this object keeps the closure, which the observation's end must
    // release. Made only after a read Observation tracked.
    return { [weak self] in self?.schedule(ifNoRunSince: run) }
  }

  /// Runs `body`, one run of the closure, marked as running on this thread.
  private func running(_ body: () -> Void) {
    // Counted only after a run that read what Observation tracks: only its
    // tracking can ask for a job, which a counted run since voids. A run
    // left uncounted can cause an extra run, never a missed one, and a
    // closure that reads only `@KeyValueObservable` objects pays no atomic
    // read-modify-write per run.
    if observationReads.load(ordering: .relaxed) {
      runs.add(1, ordering: .acquiringAndReleasing)
    }
    var frame = Frame(rerun: ObjectIdentifier(self), outer: Self.running.value?.assumingMemoryBound(to: Frame.self))
    return withUnsafeMutablePointer(to: &frame) { frame in
      Self.running.value = UnsafeMutableRawPointer(frame)
      defer { Self.running.value = frame.pointee.outer.map(UnsafeMutableRawPointer.init) }
      return body()
    }
  }

  /// Asks for one run where the closure is isolated, unless one is waiting
  /// already; with `runCount`, the run is skipped if another run started
  /// after that one.
  @usableFromInline
  func schedule(ifNoRunSince runCount: Int? = nil) {
    let wanted = UInt(runCount ?? Self.unconditional) + 1
    var current = requested.load(ordering: .relaxed)
    while current < wanted {
      let (exchanged, original) = requested.compareExchange(
        expected: current, desired: wanted, ordering: .acquiringAndReleasing
      )
      if exchanged { break }
      current = original
    }
    // Only the first to ask since the last job started enqueues one.
    guard current == 0 else { return }
    enqueue(isolatedTo: isolation) { [self] in
      let asked = requested.exchange(0, ordering: .acquiringAndReleasing)
      guard asked == UInt(Self.unconditional) + 1 || asked == UInt(runs.load(ordering: .acquiring)) + 1 else { return }
      filedObservation()?.runScheduled()
    }
  }

  /// The observation filed in this host, until it ends: the storage lets
  /// go of it then, so that a job scheduled before runs nothing, and this
  /// object need not hold the observation that holds it.
  private func filedObservation() -> DerivedObservationBase? {
    guard let storage = _$kvoObservedStorage else { return nil }
    return storage._withUnsafeGuaranteedRef { $0.firstRegistration(inSlot: Self.observationSlot) }
      as? DerivedObservationBase
  }
}

/// Runs `job` on `actor`, or on a task when there is none.
private func enqueue(isolatedTo actor: (any Actor)?, _ job: @escaping @Sendable () -> Void) {
  if let actor {
    Task { await runIsolated(to: actor, job) }
  } else {
    Task { job() }
  }
}

/// Runs `job` isolated to `actor`.
private func runIsolated(to actor: isolated any Actor, _ job: @Sendable () -> Void) {
  job()
}
