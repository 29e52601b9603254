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

  var undo = UndoSteps()
  var redo = UndoSteps()
  /// Whether the step on top of ``undo`` is open, being recorded: by a
  /// group, or automatically for a job. It counts once it has a change,
  /// and is not counted against the levels.
  var isOpen = false
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

  /// The object of the last change kept, which the next change of that
  /// object shares.
  var lastObject: RecordedObject?
  /// The recordings made so far, naming each: once there are two, a
  /// change one hears may be one another kept (``possibleRepeat(of:key:from:)``).
  var recordings = 0
  /// How many of the changes kept last ``possibleRepeat(of:key:from:)``
  /// looks through: other changes may be kept between two recordings'
  /// hearing one, made by an observer told between them, or on another
  /// thread.
  static let repeatWindow = 8

  /// What the stack's observable properties say.
  struct Mirrors: Equatable {
    var canUndo: Bool
    var canRedo: Bool
    var undoActionName: String
    var redoActionName: String
  }

  /// The values the stack's observable properties should have now.
  var mirrors: Mirrors {
    let top = undo.count - 1
    let openCounts = isOpen && undo.topChangeCount > 0
    let lastClosed = isOpen ? top - 1 : top
    let undoName = openCounts ? undo.name(at: top) : lastClosed >= 0 ? undo.name(at: lastClosed) : ""
    return Mirrors(
      canUndo: openCounts || lastClosed >= 0,
      canRedo: !redo.isEmpty,
      undoActionName: undoName,
      redoActionName: redo.isEmpty ? "" : redo.name(at: redo.count - 1)
    )
  }

  /// What ``record(_:of:of:from:automaticGroups:repeating:)`` leaves for
  /// after the lock. Small, as it is returned through two calls: what a
  /// change frees is in a class made only when there is some.
  struct Recorded {
    /// The generation of an automatic step it opened, whose closing the
    /// caller schedules.
    var opened: Int?
    /// Whether the stack publishes: ``mirrors`` may say something else now
    /// (the redo steps went, or the step ``KeyValueUndoStack/undo()``
    /// would take back is another), or steps wait to be forwarded.
    var publishes = false
    /// What the change let go of, released by ``release()``: held
    /// unmanaged, so that a change that frees nothing pays no release on
    /// the way back.
    private var freed: Unmanaged<Freed>?

    /// What the change lets go of, made at the first thing it does.
    mutating func freeing() -> Freed {
      if let freed { return freed.takeUnretainedValue() }
      let made = Freed()
      freed = .passRetained(made)
      return made
    }

    /// Releases what the change let go of: called once, after the lock.
    func release() {
      freed?.release()
    }
  }

  /// What a change lets go of, released after the lock: its values may
  /// hold the last references to objects.
  final class Freed {
    /// The redo steps a new change cleared.
    var redo = UndoSteps()
    /// The oldest undo steps' changes, dropped beyond the levels.
    var oldest: [RecordedChange] = []
    /// The change, when it was not kept.
    var unkept: RecordedChange.Content?
    /// The object of the change kept before, when this one's is another.
    var object: RecordedObject?
  }

  /// Keeps a change of `content`, heard by `recording`, where the mode
  /// says, unless it is `repeated`: the same change heard again by another
  /// recording (an object two recorded graphs share), which the caller
  /// found equal to one kept (``possibleRepeat(of:key:from:)``). It is a
  /// repeat whatever was kept since.
  @inline(__always)
  mutating func record(
    _ content: consuming RecordedChange.Content,
    of key: Unmanaged<GraphKey>,
    of object: AnyObject,
    from recording: Int,
    automaticGroups: Bool,
    repeating repeated: Bool = false
  ) -> Recorded {
    guard suspensions == 0, !repeated else {
      var recorded = Recorded()
      recorded.freeing().unkept = consume content
      return recorded
    }
    var recorded = Recorded()
    let recordedObject: RecordedObject
    // Asked through the optional, so that the last object is retained only
    // once, for the change.
    if lastObject?.refers(to: object) == true {
      // Retained once, for the change: a copy of the property was
      // retained twice, and released once.
      recordedObject = Unmanaged.passUnretained(lastObject.unsafelyUnwrapped).retain().takeRetainedValue()
    } else {
      recordedObject = RecordedObject(object)
      if let last = lastObject.take() { recorded.freeing().object = last }
      lastObject = recordedObject
    }
    // Made where it is kept: made once before the branches, it was
    // retained again for each.
    guard mode == .recording else {
      collected.append(RecordedChange(object: consume recordedObject, unretainedKey: key, content: consume content, recording: recording))
      return recorded
    }
    let clearedRedo = !redo.isEmpty
    if clearedRedo {
      recorded.freeing().redo = redo.take()
    }
    if isOpen {
      // An open step counts once it has a change.
      recorded.publishes = clearedRedo || undo.topChangeCount == 0 || !forwards.isEmpty
      undo.appendToTop(RecordedChange(object: consume recordedObject, unretainedKey: key, content: consume content, recording: recording))
      return recorded
    }
    // A new step of no name: the mirrors stay when the last step had none.
    recorded.publishes = clearedRedo || undo.isEmpty || undo.hasName(at: undo.count - 1)
    undo.push(RecordedChange(object: consume recordedObject, unretainedKey: key, content: consume content, recording: recording))
    if automaticGroups {
      generation &+= 1
      isOpen = true
      recorded.opened = generation
    } else {
      if forwarding { forwards.append(("", true)) }
      // Most stacks keep every step: no call to drop none.
      if levels > 0 {
        let oldest = trim()
        if !oldest.isEmpty { recorded.freeing().oldest = oldest }
      }
    }
    recorded.publishes = recorded.publishes || !forwards.isEmpty
    return recorded
  }

  /// The newest of the last changes kept (``repeatWindow``) of `key` of
  /// `object`, when another recording than `recording` kept it: the
  /// change `recording` hears may be that one heard again (an object two
  /// recorded graphs share). For the caller to compare with no lock held,
  /// since the comparison calls the values' `==`. `nil` in every other
  /// case.
  ///
  /// Mutating only so that it reads the state in place: called on the
  /// locked pointer's state, a non-mutating call copied all of it first.
  mutating func possibleRepeat(of object: AnyObject, key: Unmanaged<GraphKey>, from recording: Int) -> RecordedChange? {
    guard mayRepeat else { return nil }
    let count = mode == .recording ? undo.changes.count : collected.count
    for position in stride(from: count - 1, through: max(0, count - Self.repeatWindow), by: -1) {
      let change = mode == .recording ? undo.changes[position] : collected[position]
      guard change.object.refers(to: object), change.isOfKey(key) else { continue }
      return change.recording == recording ? nil : change
    }
    return nil
  }

  /// Whether a change heard may be one another recording kept: asked
  /// first, inlined, as a stack of one recording hears each change once.
  @inline(__always)
  var mayRepeat: Bool {
    suspensions == 0 && recordings > 1
  }

  /// Opens a group; at the outermost level, closes the automatic step
  /// first. The stack publishes when steps wait to be forwarded, or a
  /// group inside another names a step that has changes: ``mirrors`` show
  /// the step closed as they did, and the group's once it has a change.
  mutating func beginGroup(named name: String) -> (freed: [RecordedChange], publishes: Bool) {
    var freed: [RecordedChange] = []
    var named = false
    if depth == 0 {
      freed = closeOpenStep()
      undo.pushEmpty(named: name)
      isOpen = true
    } else if undo.name(at: undo.count - 1).isEmpty {
      undo.setName(name, at: undo.count - 1)
      named = !name.isEmpty && undo.topChangeCount > 0
    }
    depth += 1
    return (freed, named || !forwards.isEmpty)
  }

  /// Closes a group, and its step at the outermost level: `false` when none
  /// was open. The stack publishes only when steps wait to be forwarded:
  /// ``mirrors`` showed the step closed as the last undo step, or, empty,
  /// not at all.
  mutating func endGroup() -> (balanced: Bool, freed: [RecordedChange], publishes: Bool) {
    guard depth > 0 else { return (false, [], false) }
    depth -= 1
    let freed = depth == 0 ? closeOpenStep() : []
    return (true, freed, !forwards.isEmpty)
  }

  /// Names the step being recorded, or, when none is open, the step
  /// ``KeyValueUndoStack/undo()`` would take back.
  mutating func setActionName(_ name: String) {
    if !undo.isEmpty { undo.setName(name, at: undo.count - 1) }
  }

  /// Closes the automatic step of `generation`, if it is still open.
  mutating func closeAutomaticStep(_ generation: Int) -> [RecordedChange] {
    guard depth == 0, isOpen, generation == self.generation else { return [] }
    return closeOpenStep()
  }

  /// Closes the open step: it stays on the undo stack, unless it is empty.
  private mutating func closeOpenStep() -> [RecordedChange] {
    guard isOpen else { return [] }
    isOpen = false
    let top = undo.count - 1
    guard undo.topChangeCount > 0 else {
      _ = undo.popLast()
      return []
    }
    if forwarding { forwards.append((undo.name(at: top), true)) }
    return trim()
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
  mutating func startReplay(_ mode: Mode) -> (step: UndoStep?, refusal: Refusal?, freed: [RecordedChange]) {
    // A replay inside another would end the outer one's collecting, and
    // lose both steps for redo.
    guard self.mode == .recording else { return (nil, .insideReplay, []) }
    guard depth == 0 else { return (nil, .insideGroup, []) }
    let freed = closeOpenStep()
    guard let step = mode == .undoing ? undo.popLast() : redo.popLast() else { return (nil, nil, freed) }
    self.mode = mode
    return (step, nil, freed)
  }

  /// Ends a replay of `step`: what it made becomes a step of the other
  /// stack, or, when it `failed`, is returned to be put back, and the
  /// step goes back where it was. A failed replay stays running until
  /// ``endPutBack()``, so that no undo starts while what it changed is
  /// put back.
  mutating func finishReplay(
    _ mode: Mode, of step: consuming UndoStep, failed: Bool
  ) -> (made: [RecordedChange], freed: (step: UndoStep?, oldest: [RecordedChange])) {
    let made = collected.take()
    if failed {
      // Back where it was, not forwarded again: the forwarded replay
      // that failed is the one taken.
      return (made, (nil, push(step, ontoUndo: mode == .undoing, forwarded: false)))
    }
    self.mode = .recording
    guard !made.isEmpty else { return ([], (step, [])) }
    let replayed = UndoStep(name: step.name, changes: made)
    return ([], (step, push(replayed, ontoUndo: mode != .undoing)))
  }

  /// Ends a failed replay, once what it changed is put back.
  mutating func endPutBack() {
    mode = .recording
  }

  /// Pushes `step` onto the undo steps, below a step a group opened
  /// meanwhile, or else the redo steps, and drops the oldest beyond the
  /// levels.
  private mutating func push(_ step: consuming UndoStep, ontoUndo: Bool, forwarded: Bool = true) -> [RecordedChange] {
    let name = step.name
    if ontoUndo {
      // A group opened by code the replay notified: its step stays on top.
      let open = isOpen ? undo.popLast() : nil
      undo.push(step)
      if let open { undo.push(open) }
    } else {
      redo.push(step)
    }
    if forwarding && forwarded { forwards.append((name, ontoUndo)) }
    return trim()
  }

  /// Drops the oldest undo steps beyond the levels: the open step is not
  /// counted.
  mutating func trim() -> [RecordedChange] {
    let closed = undo.count - (isOpen ? 1 : 0)
    guard levels > 0, closed > levels else { return [] }
    return undo.removeFirst(closed - levels)
  }

  /// Forgets every step, the open one's changes and its groups: what it
  /// frees, to release after the lock.
  mutating func removeAll() -> (UndoSteps, UndoSteps, RecordedObject?) {
    depth = 0
    isOpen = false
    return (undo.take(), redo.take(), lastObject.take())
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
