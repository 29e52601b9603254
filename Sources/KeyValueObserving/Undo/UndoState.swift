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

  /// The recording that heard the last change kept, and the change's
  /// object: a different recording hearing a change of the same object
  /// next may be hearing it again (``lastKept(isSameChangeAs:)`` tells).
  /// An identity only, so that recording a change copies no weak
  /// reference.
  var lastRecorded: (recording: Int, object: ObjectIdentifier)?
  /// The recordings made so far, naming each.
  var recordings = 0

  /// What the stack's observable properties say.
  struct Mirrors: Equatable {
    var canUndo: Bool
    var canRedo: Bool
    var undoActionName: String
    var redoActionName: String
  }

  /// The values the stack's observable properties should have now.
  ///
  /// The steps are read in place: a step copied is each of its changes
  /// copied.
  var mirrors: Mirrors {
    let openCounts = open?.changes.isEmpty == false
    let undoName = openCounts ? open?.name : undoSteps.isEmpty ? nil : undoSteps[undoSteps.count - 1].name
    return Mirrors(
      canUndo: openCounts || !undoSteps.isEmpty,
      canRedo: !redoSteps.isEmpty,
      undoActionName: undoName ?? "",
      redoActionName: redoSteps.isEmpty ? "" : redoSteps[redoSteps.count - 1].name
    )
  }

  /// What ``record(_:of:from:automaticGroups:)`` leaves for after the lock.
  struct Recorded {
    /// The generation of an automatic step it opened, whose closing the
    /// caller schedules.
    var opened: Int?
    /// The redo steps a new change cleared, to release.
    var freed: [UndoStep] = []
    /// Whether the stack publishes: ``mirrors`` may say something else now
    /// (the redo steps went, or the step ``KeyValueUndoStack/undo()``
    /// would take back is another), or steps wait to be forwarded.
    var publishes = false
  }

  /// Keeps `change`, heard by `recording`, where the mode says; the same
  /// change heard again by another recording (an object two recorded
  /// graphs share) is kept once: `repeated`, the change kept last, which
  /// the caller found equal to `change` (``possibleRepeat(of:from:)``).
  mutating func record(
    _ change: consuming RecordedChange,
    of object: ObjectIdentifier,
    from recording: Int,
    automaticGroups: Bool,
    repeating repeated: RecordedChange? = nil
  ) -> Recorded {
    guard suspensions == 0 else { return Recorded() }
    // Compared by the caller, with no lock held, and still the last kept.
    if let repeated, lastKept === repeated { return Recorded() }
    var recorded = Recorded()
    lastRecorded = (recording, object)
    switch mode {
    case .undoing, .redoing:
      collected.append(change)
    case .recording:
      recorded.freed = redoSteps.take()
      if case .some = open {
        // An open step counts once it has a change.
        recorded.publishes = !recorded.freed.isEmpty || open!.changes.isEmpty || !forwards.isEmpty
        open!.changes.append(change)
        return recorded
      }
      // A new step of no name: the mirrors stay when the last step had none.
      recorded.publishes = !recorded.freed.isEmpty || undoSteps.isEmpty || !undoSteps[undoSteps.count - 1].name.isEmpty
      if automaticGroups {
        generation &+= 1
        open = UndoStep(name: "", changes: UndoChanges(change))
        recorded.opened = generation
      } else {
        let dropped = push(UndoStep(name: "", changes: UndoChanges(change)), ontoUndo: true)
        if !dropped.isEmpty { recorded.freed += dropped }
      }
      recorded.publishes = recorded.publishes || !forwards.isEmpty
    }
    return recorded
  }

  /// The change kept last when `recording`, hearing a change of `object`,
  /// may be hearing one another recording kept (an object two recorded
  /// graphs share): for the caller to compare with no lock held, since
  /// the comparison calls the values' `==`. `nil` in every other case.
  ///
  /// Mutating only so that it reads the state in place: called on the
  /// locked pointer's state, a non-mutating call copied all of it first.
  mutating func possibleRepeat(of object: ObjectIdentifier, from recording: Int) -> RecordedChange? {
    guard suspensions == 0, let last = lastRecorded, last.recording != recording, last.object == object else { return nil }
    return lastKept
  }

  /// The change kept last, where the mode puts changes.
  private var lastKept: RecordedChange? {
    switch mode {
    case .undoing, .redoing: collected.last
    case .recording: open?.changes.last ?? undoSteps.last?.changes.last
    }
  }

  /// Opens a group; at the outermost level, closes the automatic step
  /// first. The stack publishes when steps wait to be forwarded, or a
  /// group inside another names a step that has changes: ``mirrors`` show
  /// the step closed as they did, and the group's once it has a change.
  mutating func beginGroup(named name: String) -> (freed: [UndoStep], publishes: Bool) {
    var freed: [UndoStep] = []
    var named = false
    if depth == 0 {
      freed = closeOpenStep()
      open = UndoStep(name: name, changes: UndoChanges())
    } else if open!.name.isEmpty {
      open!.name = name
      named = !name.isEmpty && !open!.changes.isEmpty
    }
    depth += 1
    return (freed, named || !forwards.isEmpty)
  }

  /// Closes a group, and its step at the outermost level: `false` when none
  /// was open. The stack publishes only when steps wait to be forwarded:
  /// ``mirrors`` showed the step closed as the last undo step, or, empty,
  /// not at all.
  mutating func endGroup() -> (balanced: Bool, freed: [UndoStep], publishes: Bool) {
    guard depth > 0 else { return (false, [], false) }
    depth -= 1
    let freed = depth == 0 ? closeOpenStep() : []
    return (true, freed, !forwards.isEmpty)
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
    return push(step, ontoUndo: true)
  }

  /// Why an undo or a redo did nothing, besides there being no step.
  enum Refusal {
    /// A group is open.
    case insideGroup
    /// An undo or a redo is running: this one was asked by code it
    /// notified.
    case insideReplay

    /// Reports the refusal of an undo (`mode` ``Mode/undoing``) or a redo.
    func report(of mode: Mode) {
      let call = "KeyValueUndoStack.\(mode == .undoing ? "undo" : "redo")()"
      switch self {
      case .insideGroup:
        reportProblem(.unbalancedUndoGroup, "\(call) called inside a group: nothing was changed; end the group first")
      case .insideReplay:
        reportProblem(
          .unbalancedUndoGroup,
          "\(call) called during an undo or a redo, by code it notified: nothing was changed; undo in a later job"
        )
      }
    }
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
      return (made, push(step, ontoUndo: mode == .undoing, forwarded: false))
    }
    self.mode = .recording
    guard !made.isEmpty else { return ([], [step]) }
    let replayed = UndoStep(name: step.name, changes: UndoChanges(made))
    return ([], push(replayed, ontoUndo: mode != .undoing) + [step])
  }

  /// Ends a failed replay, once what it changed is put back.
  mutating func endPutBack() {
    mode = .recording
  }

  /// Pushes `step` onto the undo steps (or else the redo steps), and drops
  /// the oldest beyond the levels.
  private mutating func push(_ step: consuming UndoStep, ontoUndo: Bool, forwarded: Bool = true) -> [UndoStep] {
    let name = step.name
    if ontoUndo {
      undoSteps.append(step)
    } else {
      redoSteps.append(step)
    }
    if forwarding && forwarded { forwards.append((name, ontoUndo)) }
    return trim()
  }

  /// Drops the oldest undo steps beyond the levels.
  mutating func trim() -> [UndoStep] {
    guard levels > 0, undoSteps.count > levels else { return [] }
    let excess = undoSteps.count - levels
    let freed = Array(undoSteps.prefix(excess))
    undoSteps.removeFirst(excess)
    return freed
  }

  /// Forgets every step, the open one's changes and its groups: what it
  /// frees, to release after the lock.
  mutating func removeAll() -> ([UndoStep], [UndoStep], UndoStep?) {
    depth = 0
    lastRecorded = nil
    return (undoSteps.take(), redoSteps.take(), open.take())
  }
}

extension LockedState where State == UndoState {
  /// Records `change` under the lock (``UndoState/record(_:of:from:automaticGroups:repeating:)``),
  /// comparing it with a change it may repeat with no lock held; what the
  /// state lets go of is released after the lock.
  ///
  /// Locked by hand, so that the change is moved into the state, not
  /// copied into a closure.
  func record(
    _ change: RecordedChange, of object: ObjectIdentifier, from recording: Int, automaticGroups: Bool
  ) -> UndoState.Recorded {
    lock()
    var repeated = state.pointee.possibleRepeat(of: object, from: recording)
    if let earlier = repeated {
      // Compared with no lock held: `==` is the values' own code.
      unlock()
      if !earlier.isSameChange(as: change) { repeated = nil }
      lock()
    }
    let result = state.pointee.record(change, of: object, from: recording, automaticGroups: automaticGroups, repeating: repeated)
    unlock()
    // What the change cleared, and the change when it was not kept (its
    // values may hold the last references to objects), are released
    // after the lock.
    withExtendedLifetime((change, repeated, result.freed)) {}
    return result
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
