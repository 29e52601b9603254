/// Undo and redo for a model graph, recorded from its own changes: no undo
/// call at any mutation site.
///
/// ```swift
/// @MainActor final class Editor {
///     let document = Outline()
///     let undo = KeyValueUndoStack()
///     var recording: KeyValueObservation?
///
///     init() { recording = undo.record(document) }
///
///     func rename(_ item: Item, to text: String) {
///         undo.group(named: "Rename") { item.text = text }
///     }
/// }
///
/// editor.rename(item, to: "Milk")
/// editor.undo.undoActionName   // "Rename"
/// try editor.undo.undo()       // the text is back, observers told
/// try editor.undo.redo()       // "Milk" again
/// ```
///
/// The stack records each change of the graphs it records
/// (``record(_:isolation:fileID:line:)``) as ``KeyValueGraphChange/apply()`` can make
/// it again, and undoes a step by applying the inverses of its changes in
/// reverse order. Undoing notifies observers as any change does, and the
/// changes it makes are the redo step. <doc:ObservingAModelGraph> says which
/// changes a graph delivers.
///
/// **Steps.** A step is what one ``undo()`` takes back:
///
/// | changes made | make |
/// |---|---|
/// | in one job of the stack's actor, outside a group | one step, closed after the job |
/// | inside ``group(named:_:)``, or between ``beginGroup(named:)`` and ``endGroup()`` | one step, closed when the outermost group ends |
/// | inside ``withoutRecording(_:)`` | no step |
/// | with no actor (a stack made off any actor), outside a group | one step each |
///
/// A job's step closes as a coalesced run does
/// (<doc:ObservingClosures#Coalesced-runs>), and
/// ``waitForCoalescedRuns(isolation:)`` waits for it. A group nests: an
/// inner group's changes are the outer group's. A group
/// opened at the outermost level first closes the step the job had open,
/// so one command is one step however many commands a job runs.
///
/// A change that leaves its property as it was makes no step: a setting of
/// an equal value (`==`, or the same object), or a set's member inserted
/// again. A new change clears the redo steps, as in
/// `UndoManager`. The steps hold the values they restore, removed objects
/// included, and hold weakly the objects whose keys they change: the
/// changes of an object freed since are dropped, and a step left with none
/// is skipped.
///
/// An object that two recorded graphs share has each change kept once,
/// also while other threads change the graphs. The second recording
/// looks for the change among the last eight kept: more kept between the
/// two hearings (by an observer told between them) keep it twice.
///
/// **Isolation.** The stack belongs to the actor it was made on, and its
/// recordings to that actor too: make changes, and call it, there. A debug
/// build stops at a recorded change made elsewhere, naming its key. Open
/// and end a group in one task: another task's changes in between join it.
@KeyValueObservable
public final class KeyValueUndoStack: @unchecked Sendable {
  // @unchecked Sendable: the steps and the forwarder are under a lock;
  // the observable mirrors below are observable storage, safe on any
  // thread, and written on the stack's actor unless it is misused.

  /// Whether ``undo()`` has a step to take back. Observable.
  ///
  /// ```swift
  /// let token = undo.observe(\.canUndo, options: .initial) { undo, _ in menu.undoItem.isEnabled = undo.canUndo }
  /// ```
  public private(set) var canUndo = false

  /// Whether ``redo()`` has a step to make again. Observable.
  public private(set) var canRedo = false

  /// The name of the step ``undo()`` would take back, for the Edit menu:
  /// `""` when it has none. Observable.
  ///
  /// ```swift
  /// undo.group(named: "Sort") { document.items.sort() }
  /// undo.undoActionName  // "Sort"
  /// ```
  public private(set) var undoActionName = ""

  /// The name of the step ``redo()`` would make again: `""` when it has
  /// none. Observable.
  public private(set) var redoActionName = ""

  /// The steps kept for undo, at most: the oldest goes when one more is
  /// closed. `0`, the default, keeps them all; a negative number counts as
  /// `0`. Lowering it drops the oldest undo steps beyond it at once. Redo
  /// steps are not counted.
  ///
  /// ```swift
  /// undo.levelsOfUndo = 50
  /// ```
  @KeyValueIgnored public var levelsOfUndo: Int {
    get { state.withLock { $0.levels } }
    set {
      // What the lock frees is released after it.
      _ = state.withLock { state in
        state.levels = max(0, newValue)
        return state.trim()
      }
      publish()
    }
  }

  /// The steps, the open one, and what recording does now.
  @KeyValueIgnored private let state = LockedState(UndoState())

  /// The actor the stack belongs to, whose jobs close automatic steps.
  @KeyValueIgnored private let isolation: (any Actor)?

  /// A stack that belongs to `isolation`, the caller's actor, which Swift
  /// passes for you.
  ///
  /// ```swift
  /// @MainActor let undo = KeyValueUndoStack()
  /// ```
  public init(isolation: isolated (any Actor)? = #isolation) {
    self.isolation = isolation
  }

  /// Records the changes of `root`'s model graph: its observable keys and
  /// those of every `@KeyValueObservable` object reachable from it, as
  /// ``KeyValueObservable/observeGraph(options:isolation:fileID:line:changeHandler:)``
  /// follows them, until the returned token ends.
  ///
  /// ```swift
  /// recording = undo.record(document)
  /// document.title = "Groceries"   // one step, closed after this job
  /// ```
  ///
  /// - Parameters:
  ///   - root: The object whose graph is recorded.
  ///   - isolation: The actor the changes are made on: the stack's, which
  ///     Swift passes for you when you call from there.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph``;
  ///     Swift passes it for you.
  ///   - line: The line of the call, likewise.
  /// - Returns: The token that keeps the recording alive. It holds the
  ///   stack.
  public func record(
    _ root: some KeyValueObservable,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    let recording = state.withLock { state in
      state.recordings += 1
      return state.recordings
    }
    let site = RegistrationSite(fileID: fileID, line: line)
    return root.observeGraph(
      options: [.old, .new], site: site, handler: UndoRecording(stack: self, number: recording, isolation: isolation)
    )
  }

  /// Runs `body` as one step named `name`, and returns what it returns.
  ///
  /// ```swift
  /// undo.group(named: "Add item") {
  ///     document.items.append(item)
  ///     document.selection = item
  /// }
  /// ```
  ///
  /// A group inside another is part of it. The outermost group's name, or
  /// the first one given inside it, names the step. If `body` throws, the
  /// changes it made stay, and are the step.
  @discardableResult
  public func group<Result, Failure: Error>(
    named name: String = "",
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    beginGroup(named: name)
    defer { endGroup() }
    return try body()
  }

  /// Opens a group, for a step that spans several jobs, such as a drag:
  /// the changes until the matching ``endGroup()`` are one step.
  ///
  /// ```swift
  /// undo.beginGroup(named: "Drag")
  /// // … changes, over several jobs …
  /// undo.endGroup()
  /// ```
  public func beginGroup(named name: String = "") {
    // What the lock frees is released after it.
    let (_, publishes) = state.withLock { $0.beginGroup(named: name) }
    if publishes { publish() }
  }

  /// Closes the group ``beginGroup(named:)`` opened; the outermost one
  /// closes its step. One with no group open is reported
  /// (``KeyValueObservingDiagnostic/Kind/unbalancedUndoGroup``) and does
  /// nothing.
  public func endGroup() {
    let (balanced, _, publishes) = state.withLock { $0.endGroup() }
    if !balanced {
      reportProblem(.unbalancedUndoGroup, "KeyValueUndoStack.endGroup() called with no group open: nothing was closed")
    }
    if publishes { publish() }
  }

  /// Names the step being recorded, or, when none is open, the step
  /// ``undo()`` would take back. When the changes before it made no step
  /// (they assigned what was there), that is an earlier step: name a step
  /// with ``group(named:_:)`` instead where you can.
  ///
  /// ```swift
  /// item.done = true
  /// undo.setActionName("Check Off")
  /// ```
  public func setActionName(_ name: String) {
    state.withLock { $0.setActionName(name) }
    publish()
  }

  /// Runs `body` without recording what it changes: changes that should not
  /// be undone, such as loading a document.
  ///
  /// ```swift
  /// undo.withoutRecording { document.items = loaded }
  /// ```
  @discardableResult
  public func withoutRecording<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    state.withLock { $0.suspensions += 1 }
    defer { state.withLock { $0.suspensions -= 1 } }
    return try body()
  }

  /// Takes back the last step: applies the inverse of each of its changes,
  /// the last first, and makes what that changed the step ``redo()``
  /// makes again. Closes the step the job had open first. Does nothing
  /// when there is no step.
  ///
  /// ```swift
  /// document.title = "Groceries"
  /// try undo.undo()   // the title it had before
  /// ```
  ///
  /// Called inside a group, or during an undo or a redo by an observer it
  /// notified, it is reported
  /// (``KeyValueObservingDiagnostic/Kind/unbalancedUndoGroup``) and does
  /// nothing, as `UndoManager` refuses it.
  ///
  /// - Throws: What ``KeyValueGraphChange/apply()`` throws when a change
  ///   cannot be taken back, such as an array changed since by code not
  ///   recorded. What the step changed before that is put back first, and
  ///   the step stays on the stack: nothing is lost.
  public func undo() throws(KeyValueCodingError) {
    try replay(.undoing)
  }

  /// Makes the last step ``undo()`` took back again, and makes it a step
  /// to undo. Does nothing when there is none.
  ///
  /// - Throws: As ``undo()`` does, with the same guarantee.
  public func redo() throws(KeyValueCodingError) {
    try replay(.redoing)
  }

  /// Forgets every step, to undo and to redo, and the step being recorded,
  /// closing any group left open.
  public func removeAll() {
    // Released after the lock: a step's values may be the last
    // references to objects.
    _ = state.withLock { $0.removeAll() }
    publish()
  }

  /// A change the recording heard, not a prior one, that changes
  /// something: kept in the open step, or the step an undo or redo
  /// collects. Inlined into the recording's one call.
  @inline(__always)
  func record(
    _ content: consuming RecordedChange.Content, of key: Unmanaged<GraphKey>, of object: AnyObject, from recording: Int
  ) {
    // What the lock freed, in the result, is released after it.
    let result = state.record(consume content, of: key, of: object, from: recording, automaticGroups: isolation != nil)
    result.release()
    if let generation = result.opened { closeAfterJob(generation) }
    // Most changes join a step or push one more: nothing to publish.
    if result.publishes { publish() }
  }

  /// Closes the automatic step of `generation`, which the job opened,
  /// after the job (the rule is CoalescedJob's). Out of line: inlined, the
  /// task's set-up cost every recorded change about 15 instructions.
  @inline(never)
  private func closeAfterJob(_ generation: Int) {
    CoalescedJob.enqueue(on: isolation) { [self] in
      _ = state.withLock { $0.closeAutomaticStep(generation) }
      publish()
    }
  }

  /// Whether the stack's lock is held now: for tests that check no user
  /// code runs under it.
  var isLocked: Bool { state.isLocked }

  /// Makes `register` the handler of ``forwardSteps(to:)``, `nil` ending
  /// it; what it replaces is released after the lock.
  func installForwarder(
    _ register: ((_ name: String, _ replay: @escaping () throws(KeyValueCodingError) -> Void) -> Void)?
  ) {
    _ = state.withLock { state in
      state.forwarding = register != nil
      defer { state.forwarder = register }
      return (state.forwarder.take(), register == nil ? state.forwards.take() : [])
    }
  }

  /// Undoes or redoes the last step of its stack, skipping steps whose
  /// objects are all freed; on failure, puts back what it changed and the
  /// step, and throws.
  private func replay(_ mode: UndoState.Mode) throws(KeyValueCodingError) {
    defer { publish() }
    while true {
      let (taken, refusal, _) = state.withLock { $0.startReplay(mode) }
      guard let step = taken else {
        refusal?.report(of: mode)
        return
      }
      var failure: KeyValueCodingError?
      var applied = false
      for change in step.changes.reversed() {
        guard let graphChange = change.graphChange else { continue }
        do throws(KeyValueCodingError) {
          try graphChange.inverse.apply()
          applied = true
        } catch {
          failure = error
          break
        }
      }
      let (made, _) = state.withLock { $0.finishReplay(mode, of: step, failed: failure != nil) }
      if let failure {
        // Put back what the replay changed, last first, unrecorded.
        // An undo asked meanwhile, by an observer of these changes, is
        // refused: it would replay the step half put back.
        withoutRecording {
          for change in made.reversed() {
            try? change.graphChange?.inverse.apply()
          }
        }
        state.withLock { $0.endPutBack() }
        throw failure
      }
      if applied { return }
    }
  }

  /// Forwards the steps pushed, and writes the observable mirrors of the
  /// state that differ, after the lock.
  ///
  /// Each write tells observers, which may undo or change the document:
  /// the state is read again before the next write, so that a mirror is
  /// never set from a state that no longer holds. So the mirrors end as
  /// the state is, also when two threads publish at once (a misuse).
  private func publish() {
    let (forwarder, forwards) = state.withLock { state in (state.forwarder, state.forwards.take()) }
    if let forwarder {
      for step in forwards {
        let replay: () throws(KeyValueCodingError) -> Void = { [weak self] () throws(KeyValueCodingError) in
          try step.undoes ? self?.undo() : self?.redo()
        }
        forwarder(step.name, replay)
      }
    }
    while true {
      let mirrors = state.withLock { $0.mirrors }
      if canUndo != mirrors.canUndo {
        canUndo = mirrors.canUndo
      } else if canRedo != mirrors.canRedo {
        canRedo = mirrors.canRedo
      } else if undoActionName != mirrors.undoActionName {
        undoActionName = mirrors.undoActionName
      } else if redoActionName != mirrors.redoActionName {
        redoActionName = mirrors.redoActionName
      } else {
        return
      }
    }
  }
}
