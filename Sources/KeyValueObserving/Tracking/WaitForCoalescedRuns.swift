/// Returns once every coalesced run pending at the call has run, and
/// every run those runs scheduled: how a test sees what coalesced code
/// did, with no sleep.
///
/// ```swift
/// @Test @MainActor func oneRunPerJob() async {
///     let person = Person()
///     var runs = 0
///     let token = withKeyValueObservation(tracking: .coalesced) { runs += 1; _ = person.name + person.city }
///     person.name = "Ada"
///     person.city = "London"      // the same job: one run, after it
///     await waitForCoalescedRuns()
///     #expect(runs == 2)          // the first run, and the coalesced one
///     withExtendedLifetime(token) {}
/// }
/// ```
///
/// A run is pending from the change that schedules it until it has run
/// (<doc:ObservingClosures#Coalesced-runs> says when that is). These
/// count, on any actor:
/// - the runs of closures observed with ``KeyValueTrackingOptions/coalesced``;
/// - the writes of bindings made with `coalesced: true`;
/// - the run a change of an `@Observable` class's property asks for.
///
/// A change made during a waited-for run, on its thread, that schedules
/// another run adds that run to the wait, and so on until none is left.
/// Runs that other code schedules meanwhile are not waited for. Coalesced
/// closures that keep changing what each other reads never let it
/// return, as they never let their actor rest.
///
/// It suspends the caller until then, so that the runs of the caller's
/// own actor can run, and returns on the caller's actor. It never sleeps
/// or polls. With nothing pending, it returns at once.
///
/// - Parameter isolation: The actor to return to: the caller's, which
///   Swift passes for you.
public func waitForCoalescedRuns(isolation: isolated (any Actor)? = #isolation) async {
  await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
    PendingJobs.whenDone { continuation.resume() }
  }
}
