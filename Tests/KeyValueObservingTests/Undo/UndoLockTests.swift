@testable import KeyValueObserving
import Testing

/// Notes whether the undo stack's lock was held while a value's `==` ran.
final class EqualityProbe: @unchecked Sendable {
  weak var stack: KeyValueUndoStack?
  var comparisons = 0
  var comparedUnderTheLock = false
}

/// A value whose `==`, user code, asks the probe's stack whether its lock
/// is held.
struct ProbedValue: Equatable {
  var number: Int
  let probe: EqualityProbe

  static func == (lhs: ProbedValue, rhs: ProbedValue) -> Bool {
    lhs.probe.comparisons += 1
    if lhs.probe.stack?.isLocked == true { lhs.probe.comparedUnderTheLock = true }
    return lhs.number == rhs.number
  }
}

@KeyValueObservable
final class ProbedItem {
  var value: ProbedValue

  init(_ value: ProbedValue) { self.value = value }
}

@KeyValueObservable
final class ProbedList {
  var items: [ProbedItem] = []
}

@Suite("Undo stack: no user code under its lock")
struct UndoLockTests {
  @Test("a change two recordings hear is compared with no lock held, and kept once")
  func sharedObjectComparedOutsideTheLock() throws {
    let probe = EqualityProbe()
    let item = ProbedItem(ProbedValue(number: 0, probe: probe))
    let first = ProbedList()
    let second = ProbedList()
    first.items = [item]
    second.items = [item]
    let undo = KeyValueUndoStack(isolation: nil)
    probe.stack = undo
    let recordings = [undo.record(first, isolation: nil), undo.record(second, isolation: nil)]
    item.value = ProbedValue(number: 1, probe: probe)
    // The setting compared for each recording, and the repeat once.
    #expect(probe.comparisons >= 3)
    #expect(!probe.comparedUnderTheLock)
    try undo.undo()
    #expect(item.value.number == 0)
    #expect(!undo.canUndo, "the change two recordings heard was kept twice")
    withExtendedLifetime(recordings) {}
  }
}

/// A value whose deinit, user code, notes whether the stack's lock is held.
final class ReleaseProbe: @unchecked Sendable {
  weak var stack: KeyValueUndoStack?
  var releases = 0
  var releasedUnderTheLock = false
}

final class ProbedRelease {
  let probe: ReleaseProbe
  init(_ probe: ReleaseProbe) { self.probe = probe }
  deinit {
    probe.releases += 1
    if probe.stack?.isLocked == true { probe.releasedUnderTheLock = true }
  }
}

@KeyValueObservable
final class ReleaseHolder {
  var held: ProbedRelease?
}

@Suite("Undo stack: what it lets go of is released with no lock held")
struct UndoReleaseTests {
  @Test("values of redo steps a new change clears, of steps beyond the levels, and of removeAll()")
  func valuesReleasedAfterTheLock() throws {
    let probe = ReleaseProbe()
    let holder = ReleaseHolder()
    let undo = KeyValueUndoStack()
    probe.stack = undo
    let recording = undo.record(holder)
    defer { recording.invalidate() }
    // Redo steps cleared by a new change: the values A and B.
    holder.held = ProbedRelease(probe)
    holder.held = ProbedRelease(probe)
    try undo.undo()
    try undo.undo()
    holder.held = ProbedRelease(probe)
    #expect(probe.releases == 2)
    // Steps dropped beyond the levels: C, D and E, held by those steps alone.
    undo.levelsOfUndo = 1
    for _ in 0..<3 { holder.held = ProbedRelease(probe) }
    holder.held = nil
    #expect(probe.releases == 5)
    // The last step's old value.
    undo.removeAll()
    #expect(probe.releases == 6)
    #expect(!probe.releasedUnderTheLock)
  }
}
