import Observation

/// A tracked closure's observation (see
/// ``withKeyValueObservation(tracking:includingDeallocation:isolation:fileID:line:_:)``), without
/// its types: when and where the closure runs again after a change of what
/// it read. ``TrackedObservation`` adds the typed read and handler.
///
/// A closure runs again on the thread that made the change, at its did
/// (``RunTime/now``), or — coalescing, or after a change only Swift
/// Observation reported — once, later, on the actor it is isolated to, for
/// every change made meanwhile (``RunTime/later``). A change the closure
/// makes itself while it runs, on its thread, runs nothing
/// (``RunTime/never``): a closure that writes a key it reads sees its own
/// write, and is not run again for it, forever or once.
///
/// It is filed in no storage: its token owns it (see
/// ``KeyValueObservation``), its dependency registrations hold it while it
/// is registered, and a job scheduled to run it holds it until the job
/// runs, which does nothing once it ended. One object, so that a closure
/// over a few keys costs little more than their registrations.
@usableFromInline
class TrackedObservationBase: DerivedObservationBase, @unchecked Sendable {
  // @unchecked Sendable: everything is immutable, atomic, or behind the
  // base class's lock.

  /// Whether every run after a change waits for ``schedule(ifNoRunSince:)``.
  @usableFromInline let defers: Bool

  /// Whether each run is checked to be on ``isolation``: in a debug
  /// build, as `observe` checks its handler.
  private let checksIsolation: Bool

  /// Whether the last run read a property Swift Observation tracks, which
  /// can run the closure again though no key is registered.
  private let observationReads = AtomicFlag(false)

  /// Whether runs are read inside `withObservationTracking`.
  private let tracksObservationReads: Bool

  /// The actor the closure is isolated to: where a job runs, and, in a
  /// debug build, where each run is checked to be.
  private let isolation: (any Actor)?

  /// The ``RunRequests``, retained, once a run is asked for or Observation
  /// tracked a read: a closure that reads only `@KeyValueObservable`
  /// objects and runs at each did never makes them.
  private let requestsMade = AtomicUInt(0)

  /// The tracked closures running on this thread, innermost first.
  private static let running = ThreadLocal(.runningClosure)

  private struct Frame {
    let observation: ObjectIdentifier
    let outer: UnsafeMutablePointer<Frame>?
  }

  /// An observation whose runs wait for a job when it `defers` (see
  /// ``defers(_:isolation:site:)``), with `options` and `tracking`,
  /// isolated to `isolation`, made at `site`.
  @usableFromInline
  init(
    options: KeyValueObservingOptions,
    tracking: KeyValueTrackingOptions,
    defers: Bool,
    isolation: (any Actor)?,
    site: RegistrationSite
  ) {
    self.defers = defers
    self.isolation = isolation
    self.checksIsolation = _isDebugAssertConfiguration() && isolation != nil
    self.tracksObservationReads = !tracking.contains(.skippingSwiftObservation)
    super.init(options: options, slot: Self.keyPathSlot)
    self.site = site
  }

  deinit {
    requestsMade.loadObject(RunRequests.self, ordering: .acquiring)?.release()
  }

  /// Whether runs with `tracking`, from a caller isolated to `isolation`
  /// at `site`, wait for a job: `.coalesced` with no actor is reported and
  /// dropped.
  @usableFromInline
  static func defers(_ tracking: KeyValueTrackingOptions, isolation: (any Actor)?, site: RegistrationSite) -> Bool {
    guard tracking.contains(.coalesced) else { return false }
    guard isolation == nil else { return true }
    reportProblem(
      .coalescingWithoutActor,
      "withKeyValueObservation(tracking: .coalesced) at \(site.description ?? "a call") is isolated to no actor, so "
        + "there is no turn to coalesce changes into: it runs after each change; call it from the actor whose "
        + "turns should coalesce them (the main actor, for UI code)"
    )
    return false
  }

  override var observerSource: ObserverSource { .trackedClosure }

  override var observerDescription: String { "withKeyValueObservation closure" }

  /// A freed object the closure read runs it again, when it hears them
  /// (see ``KeyValueObservingOptions/deallocation``). Then, a tracked
  /// closure that nothing can change again has ended: every object its
  /// last run read was freed, and Swift Observation tracks none of its
  /// reads. Its token turns inactive.
  override func dependencyEnded(freed: DependencyRegistration?) {
    if let freed, hearsDeallocation {
      dependencyFreed(freed)
    }
    if !isEnded, !tracksObservation, dependsOnFreedObjectsOnly {
      end()
    }
  }

  /// The object of `registration` was freed, and the closure hears it:
  /// overridden with the typed change path.
  func dependencyFreed(_ registration: DependencyRegistration) {}

  /// Reads the value again and notifies, for a run ``schedule(ifNoRunSince:)``
  /// asked for. Overridden with the typed read.
  func runScheduled() {}

  // MARK: Runs

  /// Runs `body`, one run of the closure, where the observation reads its
  /// value with tracking (see ``running(_:)`` and
  /// ``readTrackingObservation(_:)``).
  @usableFromInline
  final func run(_ body: () -> Void) {
    if checksIsolation, let checkedIsolation = isolation {
      checkedIsolation.preconditionIsolated(
        "KeyValueObserving: a closure observed with withKeyValueObservation at \(site.description ?? "a call") "
          + "runs off \(checkedIsolation), the actor it is isolated to, for a change made there; observe it with "
          + "options: .coalesced to run it on that actor whoever changes what it reads"
      )
    }
    running { readTrackingObservation(body) }
  }

  /// How many runs started after a run that read what Observation tracks.
  final var runCount: Int {
    requestsMade.loadObject(RunRequests.self, ordering: .acquiring)?._withUnsafeGuaranteedRef {
      $0.runs.load(ordering: .acquiring)
    } ?? 0
  }

  /// When the closure runs for a change told now, on this thread.
  @inlinable
  final func whenToRun() -> RunTime {
    if isRunningOnThisThread { return .never }
    return defers ? .later : .now
  }

  /// Whether a run of this closure is under way on this thread.
  @usableFromInline
  final var isRunningOnThisThread: Bool {
    var frame = Self.running.value?.assumingMemoryBound(to: Frame.self)
    while let current = frame {
      if current.pointee.observation == ObjectIdentifier(self) { return true }
      frame = current.pointee.outer
    }
    return false
  }

  /// Whether the last run read a property Swift Observation tracks.
  @usableFromInline final var tracksObservation: Bool { observationReads.load(ordering: .acquiring) }

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
    _ = requests()
    observationReads.store(true, ordering: .releasing)
    // Weak: Observation keeps the handler until the property changes, and
    // this object keeps the closure, which must go when nothing else holds
    // this object (its token, its registrations, a job asked for). Made
    // only after a read Observation tracked.
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
      _ = requests()._withUnsafeGuaranteedRef { $0.runs.add(1, ordering: .acquiringAndReleasing) }
    }
    var frame = Frame(
      observation: ObjectIdentifier(self),
      outer: Self.running.value?.assumingMemoryBound(to: Frame.self)
    )
    return withUnsafeMutablePointer(to: &frame) { frame in
      Self.running.value = UnsafeMutableRawPointer(frame)
      defer { Self.running.value = frame.pointee.outer.map(UnsafeMutableRawPointer.init) }
      return body()
    }
  }

  /// The requests, made by the first to need them.
  private func requests() -> Unmanaged<RunRequests> {
    if let made = requestsMade.loadObject(RunRequests.self, ordering: .acquiring) { return made }
    let made = Unmanaged.passRetained(RunRequests())
    let (stored, current) = requestsMade.storeObjectIfNone(made, ordering: .acquiringAndReleasing)
    if !stored { made.release() }
    return current
  }

  /// Asks for one run where the closure is isolated, unless one is waiting
  /// already (the rule is ``CoalescedJob``'s); with `runCount`, the run
  /// is skipped if another run started after that one.
  @usableFromInline
  final func schedule(ifNoRunSince runCount: Int? = nil) {
    let requests = requests()
    // Only the first to ask since the last job started enqueues one.
    guard requests._withUnsafeGuaranteedRef({ $0.ask(ifNoRunSince: runCount) }) else { return }
    // The job holds the observation until it runs; one that runs after
    // the observation ended does nothing.
    CoalescedJob.enqueue(on: isolation) { [self] in
      guard requests._withUnsafeGuaranteedRef({ $0.start() }), !isEnded else { return }
      runScheduled()
    }
  }
}

/// What both kinds of tracked observation answer the change path (see
/// ``DerivedValueObservation``) alike: the value is read from nothing; every
/// change of what it is registered with counts, as the next run tracks its
/// reads anew (the closure is not run to find out whether it still reads
/// them); there is no chain; a run asked for later is scheduled.
extension DerivedValueObservation where Self: TrackedObservationBase, Root == Void {
  @inlinable
  var liveRoot: Void? { () }

  @inlinable @inline(__always)
  func isDependency(_ sender: _KeyValueRegistration) -> Bool { true }

  @inlinable @inline(__always)
  func isChainEnd(_ sender: _KeyValueRegistration) -> Bool { false }

  @inlinable
  func valueAtChainEnd(from sender: _KeyValueRegistration, on object: AnyObject?) -> Value? { nil }

  @inlinable
  func scheduleRun() {
    schedule()
  }
}

/// The runs a tracked closure's jobs were asked for (see
/// ``TrackedObservationBase/schedule(ifNoRunSince:)``): made only by a
/// closure that coalesces, or whose reads Swift Observation tracks.
final class RunRequests: @unchecked Sendable {
  // @unchecked Sendable: atomics only.

  /// The job, asked for ``unconditional``ly, or for the latest run whose
  /// Observation tracking asked (it runs only if no run started since),
  /// plus one: each change fires the tracking of the latest run that read
  /// the property, so the latest asks. Changes until it starts join it.
  private let job = CoalescedJob()

  /// How many runs started after a run that read what Observation tracks
  /// (see ``TrackedObservationBase/run(_:)``): a job asked for by Swift
  /// Observation, whose change a run since has seen (the same change, told
  /// through the object's own registrations), does nothing.
  let runs = AtomicInt(0)

  private static let unconditional = Int.max

  /// Asks for a run, unconditionally or if no run started after
  /// `runCount`; `true` when no job waits yet, so that the caller enqueues
  /// one.
  func ask(ifNoRunSince runCount: Int?) -> Bool {
    let wanted = UInt(runCount ?? Self.unconditional) + 1
    return job.request { max($0, wanted) }
  }

  /// Starts the waiting job: whether it should run (asked unconditionally,
  /// or no run started since the run that asked).
  func start() -> Bool {
    let asked = job.start()
    return asked == UInt(Self.unconditional) + 1 || asked == UInt(runs.load(ordering: .acquiring)) + 1
  }
}
