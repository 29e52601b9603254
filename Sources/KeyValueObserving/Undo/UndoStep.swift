/// What one ``KeyValueUndoStack/undo()`` takes back, taken off its stack:
/// changes in the order they were made.
struct UndoStep {
  var name: String
  var changes: [RecordedChange]
}

/// The steps of one side of a stack, for undo or for redo, the last on
/// top. Every step's changes are kept together, in order, in chunks
/// (``Chunked``), and each step is where its changes start, with its name
/// apart: a step of one change, as a setting made outside a group is,
/// allocates nothing of its own, and the starts are plain integers in
/// chunks too. (Marks in chunks too cost a group's step about 90
/// instructions more, and saved nothing elsewhere; a name beside each
/// start made the starts three times larger.)
///
/// Never copied, as its changes are not: moved (``take()``).
struct UndoSteps {
  /// Every step's changes, the oldest step's first.
  private(set) var changes = Chunked<RecordedChange>()
  /// Where each step's changes start, counted over every change this side
  /// ever kept.
  private var starts = Chunked<Int>()
  /// The last of ``starts``, the top step's, kept apart: a group's
  /// step asks for its count of changes at each change and at its end.
  private var topStart = 0
  /// The names of the steps that have one, by their number counted over
  /// every step this side ever kept: most steps have none.
  private var names: [Int: String] = [:]
  /// How many changes were taken off the front: a start less this is its
  /// position in ``changes``.
  private var dropped = 0
  /// How many steps were taken off the front: a step's index plus this is
  /// its number in ``names``.
  private var droppedSteps = 0

  var count: Int { starts.count }
  var isEmpty: Bool { starts.isEmpty }

  /// The name of the step at `index`, counted from the oldest.
  func name(at index: Int) -> String {
    names.isEmpty ? "" : names[droppedSteps + index] ?? ""
  }

  /// Whether the step at `index` has a name: asked with no string made.
  func hasName(at index: Int) -> Bool {
    !names.isEmpty && names[droppedSteps + index] != nil
  }

  mutating func setName(_ name: String, at index: Int) {
    names[droppedSteps + index] = name.isEmpty ? nil : name
  }

  /// Where the changes of the step at `index` start in ``changes``.
  private func start(at index: Int) -> Int { starts[index] - dropped }

  /// How many changes the step on top has: one is open, or some steps
  /// are kept.
  var topChangeCount: Int { changes.count - (topStart - dropped) }

  /// Pushes a step of no changes yet, named `name`: its changes are the
  /// ones ``appendToTop(_:)`` adds.
  mutating func pushEmpty(named name: String) {
    if !name.isEmpty { names[droppedSteps + starts.count] = name }
    topStart = dropped + changes.count
    starts.append(topStart)
  }

  /// Pushes a step of one change, and of no name.
  @inline(__always)
  mutating func push(_ change: consuming RecordedChange) {
    topStart = dropped &+ changes.count
    starts.append(topStart)
    changes.append(change)
  }

  /// Pushes `step`.
  mutating func push(_ step: consuming UndoStep) {
    pushEmpty(named: step.name)
    for change in step.changes {
      changes.append(change)
    }
  }

  /// Adds `change` to the step on top.
  mutating func appendToTop(_ change: consuming RecordedChange) {
    changes.append(change)
  }

  /// Takes the step on top off.
  mutating func popLast() -> UndoStep? {
    guard !starts.isEmpty else { return nil }
    let start = topStart - dropped
    let name = names.isEmpty ? nil : names.removeValue(forKey: droppedSteps + starts.count - 1)
    _ = starts.removeLast()
    if !starts.isEmpty { topStart = starts[starts.count - 1] }
    return UndoStep(name: name ?? "", changes: changes.removeLast(from: start))
  }

  /// Takes the `count` oldest steps off: their changes, for the caller to
  /// release after its lock.
  mutating func removeFirst(_ count: Int) -> [RecordedChange] {
    guard count > 0 else { return [] }
    let end = count < starts.count ? start(at: count) : changes.count
    if !names.isEmpty {
      for number in droppedSteps..<droppedSteps + count { names[number] = nil }
    }
    _ = starts.removeFirst(count)
    dropped += end
    droppedSteps += count
    return changes.removeFirst(end)
  }

  /// Empties the steps and returns them.
  mutating func take() -> UndoSteps {
    guard !starts.isEmpty else { return UndoSteps() }
    let taken = self
    self = UndoSteps()
    return taken
  }
}
