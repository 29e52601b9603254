/// What a ``KeyValueUndoStack`` keeps under its lock: the steps, the one
/// being recorded, and what recording does now. Every method returns what
/// it frees, for the caller to release after the lock.
struct UndoState {
  /// What a heard change goes to.
  enum Mode {
    /// The open step, for undo.
    case recording
    /// The step an ``KeyValueUndoStack/undo()`` collects, for redo.
    case undoing
    /// The step a ``KeyValueUndoStack/redo()`` collects, for undo.
    case redoing
  }

  var undoSteps: [UndoStep] = []
  var redoSteps: [UndoStep] = []
  /// The step being recorded: by a group, or automatically for a job.
  var open: UndoStep?
  /// How many groups are open; 0 while an automatic step or none is.
  var depth = 0
  /// Counts the automatic steps opened, so that the job closing one does
  /// not close a later one.
  var generation = 0
  /// How many ``KeyValueUndoStack/withoutRecording(_:)`` calls are running.
  var suspensions = 0
  var mode = Mode.recording
  /// The changes an undo or a redo made, for the other stack.
  var collected: [RecordedChange] = []
  var levels = 0
  /// Whether steps are forwarded (``KeyValueUndoStack/forwardSteps(to:)``).
  var forwarding = false
  /// What ``KeyValueUndoStack/forwardSteps(to:)`` hands steps to: under
  /// the lock, as `publish()` reads it on whichever thread changed the
  /// graph.
  var forwarder: ((_ name: String, _ replay: @escaping () throws(KeyValueCodingError) -> Void) -> Void)?
  /// The steps pushed since the last forward, oldest first, for the
  /// handler called after the lock: each one's name, and whether undo (or
  /// else redo) replays it.
  var forwards: [(name: String, undoes: Bool)] = []

  /// Keeps `change` where the mode says. Returns the generation of an
  /// automatic step it opened, whose closing the caller schedules, and
  /// the redo steps a new change cleared.
  mutating func record(_ change: RecordedChange, automaticGroups: Bool) -> (Int?, [UndoStep]) {
    guard suspensions == 0 else { return (nil, []) }
    switch mode {
    case .undoing, .redoing:
      collected.append(change)
      return (nil, [])
    case .recording:
      let cleared = redoSteps.take()
      if open != nil {
        open!.changes.append(change)
        return (nil, cleared)
      }
      guard automaticGroups else {
        let step = UndoStep(name: "", changes: [change])
        return (nil, cleared + push(step, onto: \.undoSteps))
      }
      generation &+= 1
      open = UndoStep(name: "", changes: [change])
      return (generation, cleared)
    }
  }

  /// Opens a group; at the outermost level, closes the automatic step
  /// first.
  mutating func beginGroup(named name: String) -> [UndoStep] {
    var freed: [UndoStep] = []
    if depth == 0 {
      freed = closeOpenStep()
      open = UndoStep(name: name, changes: [])
    } else if open!.name.isEmpty {
      open!.name = name
    }
    depth += 1
    return freed
  }

  /// Closes a group, and its step at the outermost level: `false` when none
  /// was open.
  mutating func endGroup() -> (balanced: Bool, freed: [UndoStep]) {
    guard depth > 0 else { return (false, []) }
    depth -= 1
    return (true, depth == 0 ? closeOpenStep() : [])
  }

  /// Closes the automatic step of `generation`, if it is still open.
  mutating func closeAutomaticStep(_ generation: Int) -> [UndoStep] {
    guard depth == 0, open != nil, generation == self.generation else { return [] }
    return closeOpenStep()
  }

  /// Closes the open step: onto the undo stack, unless it is empty.
  private mutating func closeOpenStep() -> [UndoStep] {
    guard let step = open.take() else { return [] }
    guard !step.changes.isEmpty else { return [step] }
    return push(step, onto: \.undoSteps)
  }

  /// Why an undo or a redo did nothing, besides there being no step.
  enum Refusal {
    /// A group is open.
    case insideGroup
    /// An undo or a redo is running: this one was asked by code it
    /// notified.
    case insideReplay
  }

  /// Starts an undo or a redo: the step it replays, or `nil` when there is
  /// none, a group is open, or a replay runs, and why it was refused.
  mutating func startReplay(_ mode: Mode) -> (step: UndoStep?, refusal: Refusal?, freed: [UndoStep]) {
    // A replay inside another would end the outer one's collecting, and
    // lose both steps for redo.
    guard self.mode == .recording else { return (nil, .insideReplay, []) }
    guard depth == 0 else { return (nil, .insideGroup, []) }
    let freed = closeOpenStep()
    let steps = mode == .undoing ? \UndoState.undoSteps : \.redoSteps
    guard let step = self[keyPath: steps].popLast() else { return (nil, nil, freed) }
    self.mode = mode
    return (step, nil, freed)
  }

  /// Ends a replay of `step`: what it made becomes a step of the other
  /// stack, or, when it `failed`, is returned to be put back, and the
  /// step goes back where it was. A failed replay stays running until
  /// ``endPutBack()``, so that no undo starts while what it changed is
  /// put back.
  mutating func finishReplay(_ mode: Mode, of step: UndoStep, failed: Bool) -> (made: [RecordedChange], freed: [UndoStep]) {
    let made = collected.take()
    if failed {
      // Back where it was, not forwarded again: the forwarded replay
      // that failed is the one taken.
      return (made, push(step, onto: mode == .undoing ? \.undoSteps : \.redoSteps, forwarded: false))
    }
    self.mode = .recording
    guard !made.isEmpty else { return ([], [step]) }
    let replayed = UndoStep(name: step.name, changes: made)
    return ([], push(replayed, onto: mode == .undoing ? \.redoSteps : \.undoSteps) + [step])
  }

  /// Ends a failed replay, once what it changed is put back.
  mutating func endPutBack() {
    mode = .recording
  }

  /// Pushes `step`, and drops the oldest beyond the levels.
  private mutating func push(
    _ step: UndoStep, onto steps: WritableKeyPath<UndoState, [UndoStep]>, forwarded: Bool = true
  ) -> [UndoStep] {
    self[keyPath: steps].append(step)
    if forwarding && forwarded { forwards.append((step.name, steps == \UndoState.undoSteps)) }
    return trim()
  }

  /// Drops the oldest steps beyond the levels, of both stacks.
  mutating func trim() -> [UndoStep] {
    guard levels > 0 else { return [] }
    var freed: [UndoStep] = []
    for steps in [\UndoState.undoSteps, \.redoSteps] where self[keyPath: steps].count > levels {
      let excess = self[keyPath: steps].count - levels
      freed += self[keyPath: steps].prefix(excess)
      self[keyPath: steps].removeFirst(excess)
    }
    return freed
  }
}

/// What one ``KeyValueUndoStack/undo()`` takes back: changes in the order
/// they were made.
struct UndoStep {
  var name: String
  var changes: [RecordedChange]
}

/// A change a ``KeyValueUndoStack`` keeps: its object held weakly, so
/// that a freed object's changes are dropped.
struct RecordedChange {
  weak var object: (any KeyValueObservable)?
  let keyPath: AnyKeyPath
  let key: String
  let change: KeyValueObservedChange<Any>

  init(_ change: KeyValueGraphChange) {
    object = change.object
    keyPath = change.keyPath
    key = change.key
    self.change = change.change
  }

  /// The change, while its object lives.
  var graphChange: KeyValueGraphChange? {
    object.map { KeyValueGraphChange(object: $0, keyPath: keyPath, key: key, change: change) }
  }
}

extension Array {
  /// Empties the array and returns what it held.
  mutating func take() -> Self {
    let taken = self
    self = []
    return taken
  }
}
