/// One job on an actor for every request made until it starts: how the
/// runtime does something once per job of an actor. A coalesced run of a
/// tracked closure, a coalesced binding's write and the run Swift
/// Observation asks for are scheduled through it.
///
/// ```swift
/// // Any number of times, on any thread:
/// if requests.request(0b01) {
///     CoalescedJob.enqueue(on: actor) { [self] in serve(requests.start()) }
/// }
/// ```
///
/// **The rule.** A request made while no job waits enqueues one on the
/// actor's executor at once, from any thread, with no hop on the way
/// (``enqueue(on:_:)``). Every request made until that job starts joins
/// it, and the job takes them all (``start()``); the next request
/// enqueues the next job. So:
/// - the requests made in one job of the actor are served once, after
///   that job ends: a job enqueued on an actor never runs inside the one
///   running there;
/// - a request made once the served job started (in a later job of the
///   actor, or on another thread meanwhile) is served by another job;
/// - a job already in the actor's queue when the request enqueued this
///   one may run between them, as may one its executor prefers (a default
///   actor runs higher priorities first), and a request made there joins
///   too. A job enqueued after it — the rest of the requesting task after
///   an `await`, say — runs after it, on the main actor and on a default
///   actor at one priority, which run their queues in order.
///
/// An exact end of a job cannot be known: Swift has no hook for it. What
/// is exact is the start: from the first request on, the job is in the
/// actor's queue, behind the one that made the request.
///
/// The job is counted until it has run (``PendingJobs``), which is what
/// ``waitForCoalescedRuns(isolation:)`` waits for.
///
/// One atomic word, one compare-and-swap per request; no lock, no
/// allocation but the job's own.
struct CoalescedJob: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: one atomic word.

  /// What the requests since the waiting job was enqueued asked, merged;
  /// 0 while no job waits.
  private let requested = AtomicUInt(0)

  init() {}

  /// Merges a request into the waiting job's: `merge` is handed what is
  /// asked so far (0 when no job waits) and returns what is asked now,
  /// never 0. `true` when no job waited: the caller enqueues one
  /// (``enqueue(on:_:)``), which calls ``start()`` first.
  func request(merging merge: (UInt) -> UInt) -> Bool {
    var current = requested.load(ordering: .relaxed)
    while true {
      let desired = merge(current)
      // Releasing, and written even when asked already (`desired ==
      // current`): the job that takes the request sees what was changed
      // before it. A request that only read the word would be a load
      // after the change's stores, which the processor may make first
      // (store buffering): the job could start, take the word, and read
      // the state before the change, with no job left to serve it.
      let (exchanged, original) = requested.compareExchange(
        expected: current, desired: desired, ordering: .acquiringAndReleasing
      )
      if exchanged { return current == 0 }
      current = original
    }
  }

  /// Asks for the job with `bits` set in what it takes (not 0): `true`
  /// when the caller enqueues it.
  func request(_ bits: UInt = 1) -> Bool {
    request { $0 | bits }
  }

  /// Starts the waiting job: takes what was asked, so that the next
  /// request enqueues the next job.
  func start() -> UInt {
    requested.exchange(0, ordering: .acquiringAndReleasing)
  }

  /// Whether a job waits, asked for and not started.
  var isWaiting: Bool { requested.load(ordering: .acquiring) != 0 }

  /// Runs `job` on `actor`: a task whose first job is enqueued on the
  /// actor's executor at once, directly, whichever thread calls, so that
  /// it runs after the job running there now and before any job enqueued
  /// there later by the same means (an executor that keeps its queue in
  /// order). With no actor, on the global executor. Counted in
  /// ``PendingJobs`` until `job` has returned.
  ///
  /// The task's operation is a closure isolated to `actor`, made by
  /// capturing it as an `isolated` parameter: `Task.init` (emitted into
  /// this module by Swift 6 compilers) reads the isolation of its
  /// `@isolated(any)` operation and passes that actor's executor to the
  /// concurrency runtime as the task's initial executor, which it
  /// enqueues the first job on. The runtime has read that option since
  /// Swift 5.5 (its `ExecutorTaskOptionRecord`): nothing here needs more
  /// than the deployment floor. A task
  /// with a nonisolated operation (`Task { await actor.run(job) }`) would
  /// start on the global executor and reach the actor only when one of its
  /// threads ran it, behind jobs enqueued there meanwhile.
  static func enqueue(on actor: (any Actor)?, _ job: @escaping @Sendable () -> Void) {
    let ticket = PendingJobs.enqueued()
    let counted: @Sendable () -> Void = { PendingJobs.run(ticket, job) }
    guard let actor else {
      Task { counted() }
      return
    }
    // `startIsolated` only makes the task: it touches none of the
    // actor's state, so calling it from off the actor is sound. An
    // `isolated` parameter changes nothing in how a synchronous function
    // is called, which the cast relies on. `assumeIsolated` (macOS 14)
    // would give the isolation only on the actor, and traps off it; the
    // changes that ask for a job come from any thread.
    let start = unsafeBitCast(
      startIsolated as (isolated any Actor, @escaping @Sendable () -> Void) -> Void,
      to: ((any Actor, @escaping @Sendable () -> Void) -> Void).self
    )
    start(actor, counted)
  }
}

/// Starts a task that runs `job`, isolated to `actor`: the closure
/// captures the isolated parameter, so the task's first job goes on the
/// actor's executor (see ``CoalescedJob/enqueue(on:_:)``).
private func startIsolated(_ actor: isolated any Actor, _ job: @escaping @Sendable () -> Void) {
  Task {
    // The capture that isolates the closure to `actor`.
    withExtendedLifetime(actor) {}
    job()
  }
}
