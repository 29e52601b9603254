/// What one ``KeyValueUndoStack/undo()`` takes back, taken off its stack:
/// changes in the order they were made.
struct UndoStep {
  var name: String
  var changes: [RecordedChange]
}

/// The steps of one side of a stack, for undo or for redo, the last on
/// top. Every step's changes are kept together, in order, in chunks
/// (``Chunked``), and each step is its name and where its changes start:
/// a step of one change, as a setting made outside a group is, allocates
/// nothing of its own. (Marks in chunks too cost a group's step about 90
/// instructions more, and saved nothing elsewhere.)
///
/// Never copied, as its changes are not: moved (``take()``).
struct UndoSteps {
  /// Where a step's changes start, counted over every change this side
  /// ever kept, and its name.
  private struct Mark {
    var name: String
    let start: Int
  }

  /// Every step's changes, the oldest step's first.
  private(set) var changes = Chunked<RecordedChange>()
  private var marks: [Mark] = []
  /// How many changes were taken off the front: a mark's start less this
  /// is its position in ``changes``.
  private var dropped = 0

  var count: Int { marks.count }
  var isEmpty: Bool { marks.isEmpty }

  /// The name of the step at `index`, counted from the oldest.
  func name(at index: Int) -> String { marks[index].name }

  mutating func setName(_ name: String, at index: Int) { marks[index].name = name }

  /// Where the changes of the step at `index` start in ``changes``.
  private func start(at index: Int) -> Int { marks[index].start - dropped }

  /// How many changes the step at `index` has.
  func changeCount(at index: Int) -> Int {
    (index + 1 < marks.count ? start(at: index + 1) : changes.count) - start(at: index)
  }

  /// Pushes a step of no changes yet, named `name`: its changes are the
  /// ones ``appendToTop(_:)`` adds.
  mutating func pushEmpty(named name: String) {
    marks.append(Mark(name: name, start: dropped + changes.count))
  }

  /// Pushes a step of one change, named `name`.
  mutating func push(named name: String, _ change: consuming RecordedChange) {
    marks.append(Mark(name: name, start: dropped + changes.count))
    changes.append(change)
  }

  /// Pushes `step`.
  mutating func push(_ step: consuming UndoStep) {
    marks.append(Mark(name: step.name, start: dropped + changes.count))
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
    guard !marks.isEmpty else { return nil }
    let start = start(at: marks.count - 1)
    let mark = marks.removeLast()
    return UndoStep(name: mark.name, changes: changes.removeLast(from: start))
  }

  /// Takes the `count` oldest steps off: their changes, for the caller to
  /// release after its lock.
  mutating func removeFirst(_ count: Int) -> [RecordedChange] {
    guard count > 0 else { return [] }
    let end = count < marks.count ? start(at: count) : changes.count
    marks.removeFirst(count)
    dropped += end
    return changes.removeFirst(end)
  }

  /// Empties the steps and returns them.
  mutating func take() -> UndoSteps {
    guard !marks.isEmpty else { return UndoSteps() }
    let taken = self
    self = UndoSteps()
    return taken
  }
}
