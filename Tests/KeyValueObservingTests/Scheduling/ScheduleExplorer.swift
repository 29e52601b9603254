import Foundation
import KeyValueObserving
import Testing

/// A deterministic schedule explorer for the runtime's threads, in the
/// manner of loom, shuttle and Coyote: a scenario's two or three threads
/// run one at a time, and at each of the runtime's schedule points (every
/// atomic operation, each wait for another thread: see the runtime's
/// `Internal/Scheduling/SchedulePoint.swift`) the explorer decides which
/// runs next. The same schedule gives the same run, so a failure prints
/// what replays it.
///
/// ```swift
/// let explorer = ScheduleExplorer("invalidate racing a delivery")
/// explorer.explore {
///   let model = Gauge()
///   let token = model.observe(\.level) { _, _ in }
///   return ScenarioRun(
///     threads: [{ model.level = 1 }, { token.invalidate() }],
///     check: { nil }
///   )
/// }
/// ```
///
/// Two ways to choose, both replayable:
/// - **Random priorities** (probabilistic concurrency testing): each
///   thread gets a priority from the seed; the highest runnable one runs;
///   at a few steps, also from the seed, the running thread drops to the
///   lowest. A bug that needs `d` threads to meet in a given order is found
///   in one of about `threads × steps^(d-1)` runs.
/// - **Every schedule** with at most `preemptionBound` switches away from
///   a thread that could go on (switching from a thread that waits or ends
///   is free), searched depth first, as CHESS does.
///
/// Only the runtime's own synchronisation is seen: the threads interleave
/// as if memory were sequentially consistent. The stress tests with real
/// threads (`RacingWindowTests`) cover what the compiler and the processor
/// reorder.
struct ScheduleExplorer {
  let name: String
  /// Random schedules per exploration; `KVO_EXPLORER_SCHEDULES` overrides.
  var randomSchedules: Int
  /// The most preemptions a schedule of the exhaustive search makes; `nil`
  /// skips that search.
  var preemptionBound: Int?
  /// The most schedules the exhaustive search runs.
  var exhaustiveLimit: Int
  /// How many steps a random schedule changes priorities at.
  var changePoints: Int
  /// The steps after which a run is called a livelock.
  var maxSteps: Int
  /// Whether a failure is recorded as a test issue: not for the tests of
  /// the explorer itself, which expect one.
  var recordsIssues = true

  init(
    _ name: String,
    randomSchedules: Int = 300,
    preemptionBound: Int? = 2,
    exhaustiveLimit: Int = 2_000,
    changePoints: Int = 3,
    maxSteps: Int = 200_000
  ) {
    self.name = name
    let environment = ProcessInfo.processInfo.environment
    self.randomSchedules = environment["KVO_EXPLORER_SCHEDULES"].flatMap(Int.init) ?? randomSchedules
    self.preemptionBound = preemptionBound
    self.exhaustiveLimit = environment["KVO_EXPLORER_SCHEDULES"].flatMap(Int.init).map { max($0, exhaustiveLimit) }
      ?? exhaustiveLimit
    self.changePoints = changePoints
    self.maxSteps = maxSteps
  }

  /// Runs `scenario` under many schedules, and records an issue for the
  /// first that breaks its check, with the schedule that replays it. With
  /// `KVO_EXPLORER_REPLAY` set to a printed schedule (and the scenario's
  /// name in `KVO_EXPLORER_SCENARIO`, when several run), runs only that one.
  ///
  /// Returns the failure found, if any (tests of the explorer itself use it).
  @discardableResult
  func explore(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ scenario: () -> ScenarioRun
  ) -> ExplorationFailure? {
    let environment = ProcessInfo.processInfo.environment
    // A first run on one thread after the other: lazily made globals are
    // made, and a replay takes the path the search took.
    let warmUp = scenario()
    for thread in warmUp.threads { thread() }
    _ = warmUp.check()
    if let replay = environment["KVO_EXPLORER_REPLAY"].flatMap(Schedule.init(parsing:)),
      environment["KVO_EXPLORER_SCENARIO"].map({ $0 == name }) ?? true
    {
      let outcome = run(scenario, replay)
      if outcome.diverged {
        Issue.record("\(name): the replay of \(replay) took another path; run the scenario alone", sourceLocation: sourceLocation)
      }
      return report(outcome, sourceLocation: sourceLocation)
    }
    var steps = 0
    var stepsKnown = false
    var random = SplitMix64(seed: environment["KVO_EXPLORER_SEED"].flatMap(UInt64.init) ?? 0x6b76_6f5f_7365_6564)
    for _ in 0..<randomSchedules {
      let schedule = Schedule.random(seed: random.next(), changePoints: changePoints, steps: stepsKnown ? steps : 0)
      let outcome = run(scenario, schedule)
      if !stepsKnown {
        steps = outcome.steps
        stepsKnown = true
      }
      if let failure = report(outcome, sourceLocation: sourceLocation) { return failure }
    }
    guard let preemptionBound else { return nil }
    var search = DepthFirstSearch(preemptionBound: preemptionBound)
    var runs = 0
    while runs < exhaustiveLimit, let schedule = search.next() {
      runs += 1
      let outcome = run(scenario, .prescribed(schedule))
      if let failure = report(outcome, sourceLocation: sourceLocation) { return failure }
      // A diverged run's decisions past the divergence are not the
      // schedule's: the search records only those of runs that followed it.
      if !outcome.diverged { search.record(outcome.decisions) }
    }
    return nil
  }

  /// One run of `scenario` under `schedule`.
  func run(_ scenario: () -> ScenarioRun, _ schedule: Schedule) -> RunOutcome {
    let made = scenario()
    let execution = Execution(threads: made.threads.count, schedule: schedule, maxSteps: maxSteps)
    let ended = execution.start(made.threads)
    var failure = execution.failure
    if !ended {
      failure = "the run did not end within 60 seconds: a thread blocks outside the runtime's schedule points"
    }
    if failure == nil { failure = made.check() }
    return RunOutcome(
      schedule: schedule, steps: execution.step, decisions: execution.decisions, failure: failure,
      diverged: execution.diverged
    )
  }

  private func report(_ outcome: RunOutcome, sourceLocation: SourceLocation) -> ExplorationFailure? {
    guard let failure = outcome.failure else { return nil }
    let found = ExplorationFailure(scenario: name, schedule: outcome.schedule, message: failure)
    guard recordsIssues else { return found }
    Issue.record(
      """
      \(name): \(failure)
      under the schedule \(outcome.schedule) (\(outcome.steps) steps); replay it with
      KVO_EXPLORER_SCENARIO='\(name)' KVO_EXPLORER_REPLAY='\(outcome.schedule)' swift test --filter Scheduled
      """,
      sourceLocation: sourceLocation
    )
    return found
  }
}

/// One run's threads and the promise checked once they have all ended.
struct ScenarioRun {
  /// Each thread's body: two or three.
  var threads: [() -> Void]
  /// What broke, or `nil` when the promise held.
  var check: () -> String?
}

/// A schedule that broke a scenario's promise.
struct ExplorationFailure {
  let scenario: String
  let schedule: Schedule
  let message: String
}

/// What one run did.
struct RunOutcome {
  let schedule: Schedule
  let steps: Int
  let decisions: [Decision]
  let failure: String?
  /// Whether a prescribed schedule could not be followed: threads outside
  /// the run changed its path (see ``Execution``).
  let diverged: Bool
}

/// How a run chooses the next thread; its description replays it.
enum Schedule: CustomStringConvertible, Equatable {
  /// Random priorities, changed at `changePoints` steps drawn below `steps`
  /// (when known), all from `seed`.
  case random(seed: UInt64, changePoints: Int, steps: Int)
  /// The thread to run at each decision; past the end, the running thread
  /// goes on while it can, then the lowest-numbered one.
  case prescribed([Int])

  var description: String {
    switch self {
    case .random(let seed, let changePoints, let steps): "random:\(seed):\(changePoints):\(steps)"
    case .prescribed(let choices): "prescribed:" + choices.map(String.init).joined(separator: ",")
    }
  }

  init?(parsing text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    switch parts.first {
    case "random" where parts.count == 4:
      guard let seed = UInt64(parts[1]), let points = Int(parts[2]), let steps = Int(parts[3]) else { return nil }
      self = .random(seed: seed, changePoints: points, steps: steps)
    case "prescribed" where parts.count == 2:
      let choices = parts[1].split(separator: ",").compactMap { Int($0) }
      self = .prescribed(choices)
    default:
      return nil
    }
  }
}

/// A point where more than one thread could run, and what ran.
struct Decision {
  /// The threads that could run, in order.
  let candidates: [Int]
  /// The thread that was running and could go on, if any.
  let continuing: Int?
  /// The thread chosen.
  let chosen: Int
  /// Preemptions made before this decision.
  let preemptionsBefore: Int
}

/// The exhaustive search: every schedule with at most `preemptionBound`
/// preemptions, depth first over the decisions of the runs before.
struct DepthFirstSearch {
  let preemptionBound: Int
  /// Per decision on the current path: the choices to try, and which is
  /// being tried.
  private var path: [(choices: [Int], taken: Int)] = []
  private var started = false

  init(preemptionBound: Int) {
    self.preemptionBound = preemptionBound
  }

  /// The next schedule to run, or `nil` when every one was run.
  mutating func next() -> [Int]? {
    if !started {
      started = true
      return []
    }
    while let last = path.last, last.taken + 1 >= last.choices.count {
      path.removeLast()
    }
    guard !path.isEmpty else { return nil }
    path[path.count - 1].taken += 1
    return path.map { $0.choices[$0.taken] }
  }

  /// Extends the path with the decisions of the run just made past it.
  mutating func record(_ decisions: [Decision]) {
    for decision in decisions.dropFirst(path.count) {
      var choices = [decision.chosen]
      let canPreempt = decision.preemptionsBefore < preemptionBound
      for candidate in decision.candidates where candidate != decision.chosen {
        let preempts = decision.continuing != nil && candidate != decision.continuing
        if !preempts || canPreempt { choices.append(candidate) }
      }
      path.append((choices, 0))
    }
  }
}

/// A small, fast generator whose sequence is fixed by its seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
