import Dispatch
import Foundation
@testable import KeyValueObserving
import Testing

/// Holds, once armed, the first thread whose `==` compares two equal
/// ``GatedValue``s: the comparison of a change two recordings heard with
/// the one kept before, which the stack makes with its lock released
/// (`LockedState.record`, `isRepeat`). The settings' own
/// comparisons (old with new) are of unequal values, and pass.
final class ComparisonGate: @unchecked Sendable {
  // @unchecked Sendable: its state is under `lock`; the semaphores are
  // thread-safe.
  private let lock = NSLock()
  private var armed = false
  private var heldWhileLocked = false
  private let entered = DispatchSemaphore(value: 0)
  private let proceed = DispatchSemaphore(value: 0)
  weak var stack: KeyValueUndoStack?

  func arm() { lock.withLock { armed = true } }

  /// Whether a thread was held with the stack's lock taken.
  var wasHeldWhileLocked: Bool { lock.withLock { heldWhileLocked } }

  fileprivate func compared(equal: Bool) {
    guard equal, lock.withLock({ () -> Bool in
      defer { armed = false }
      return armed
    }) else { return }
    if stack?.isLocked == true { lock.withLock { heldWhileLocked = true } }
    entered.signal()
    proceed.wait()
  }

  /// Waits for a thread to be held: a bound on a broken test, not a timing.
  func waitUntilHeld() -> Bool { entered.wait(timeout: .now() + 30) == .success }

  func release() { proceed.signal() }
}

struct GatedValue: Equatable, Sendable {
  var number: Int
  let gate: ComparisonGate

  static func == (lhs: GatedValue, rhs: GatedValue) -> Bool {
    let equal = lhs.number == rhs.number
    lhs.gate.compared(equal: equal)
    return equal
  }
}

@KeyValueObservable
final class GatedItem: @unchecked Sendable {
  var value: GatedValue
  var text = ""

  init(_ gate: ComparisonGate) { value = GatedValue(number: 0, gate: gate) }
}

@KeyValueObservable
final class GatedList: @unchecked Sendable {
  var items: [GatedItem] = []
}

/// Two recorded graphs sharing `shared`; `other` is in the first alone.
/// A stack of no actor: each change outside a group is one step.
struct SharedGraphs: @unchecked Sendable {
  let gate = ComparisonGate()
  let shared: GatedItem
  let other: GatedItem
  let first = GatedList()
  let second = GatedList()
  let undo = KeyValueUndoStack(isolation: nil)
  let recordings: [KeyValueObservation]

  init() {
    shared = GatedItem(gate)
    other = GatedItem(gate)
    first.items = [shared, other]
    second.items = [shared]
    gate.stack = undo
    recordings = [undo.record(first, isolation: nil), undo.record(second, isolation: nil)]
  }

  /// Undoes every step: how many there were, at most 10.
  func undoAll() -> Int {
    var steps = 0
    while undo.canUndo && steps < 10 {
      try? undo.undo()
      steps += 1
    }
    withExtendedLifetime((recordings, first, second)) {}
    return steps
  }

  /// Sets `shared.value` to 1 on a thread of its own, holds that thread
  /// in the stack's unlocked comparison of the change with the first
  /// recording's, and runs `during` on this thread meanwhile; `during`
  /// releases the held thread with the closure it is given, which waits
  /// for it to end. `false` when the thread was never held, or never ended.
  func holdingTheComparison(_ during: (_ release: () -> Bool) -> Void) -> Bool {
    gate.arm()
    let ended = DispatchSemaphore(value: 0)
    let (shared, gate) = (self.shared, self.gate)
    onNewThread {
      shared.value = GatedValue(number: 1, gate: gate)
      ended.signal()
    }
    guard gate.waitUntilHeld() else { return false }
    var released = false
    var endedInTime = false
    during {
      released = true
      gate.release()
      endedInTime = ended.wait(timeout: .now() + 30) == .success
      return endedInTime
    }
    if !released {
      gate.release()
      endedInTime = ended.wait(timeout: .now() + 30) == .success
    }
    withExtendedLifetime((recordings, first, second)) {}
    return endedInTime && !gate.wasHeldWhileLocked
  }
}

/// The window of `LockedState.record`: a change two recordings hear is
/// compared with the one kept before with no lock held; another thread
/// uses the stack meanwhile. Each is held with two real threads.
@Suite("Undo stack: the unlocked comparison of a repeated change, held open on a real thread")
struct UndoRepeatWindowTests {
  @Test("nothing in the window: the shared object's change is kept once")
  func nothingInTheWindow() {
    let graphs = SharedGraphs()
    #expect(graphs.holdingTheComparison { _ in })
    #expect(graphs.undoAll() == 1)
    #expect(graphs.shared.value.number == 0)
  }

  @Test("another object changed in the window: each change is kept once")
  func otherObjectChangedInTheWindow() {
    let graphs = SharedGraphs()
    #expect(graphs.holdingTheComparison { _ in graphs.other.text = "other" })
    // Kept twice, the shared object's change makes a third step.
    #expect(graphs.undoAll() == 2)
    #expect(graphs.shared.value.number == 0 && graphs.other.text == "")
  }

  @Test("the shared object changed again in the window: the first undo takes back the later change only")
  func sameObjectChangedInTheWindow() throws {
    let graphs = SharedGraphs()
    #expect(graphs.holdingTheComparison { _ in graphs.shared.value = GatedValue(number: 2, gate: graphs.gate) })
    try graphs.undo.undo()
    // The copy kept on top undoes 0 → 1 first: the value jumps from 2 to 0.
    #expect(graphs.shared.value.number == 1)
    #expect(graphs.undoAll() == 1)
    #expect(graphs.shared.value.number == 0)
  }

  @Test("undo() in the window: the change is taken back, and is the redo step")
  func undoInTheWindow() throws {
    let graphs = SharedGraphs()
    #expect(graphs.holdingTheComparison { _ in try? graphs.undo.undo() })
    #expect(graphs.shared.value.number == 0)
    #expect(!graphs.undo.canUndo, "the repeat, kept after the undo, is a step that changes nothing")
    #expect(graphs.undo.canRedo, "the repeat, kept after the undo, cleared its redo step")
  }

  @Test("removeAll() in the window: no step is left")
  func removeAllInTheWindow() {
    let graphs = SharedGraphs()
    #expect(graphs.holdingTheComparison { _ in graphs.undo.removeAll() })
    #expect(!graphs.undo.canUndo && !graphs.undo.canRedo)
  }

  @Test("levelsOfUndo lowered in the window: the change is the one step left")
  func levelsLoweredInTheWindow() {
    let graphs = SharedGraphs()
    graphs.other.text = "before"
    #expect(graphs.holdingTheComparison { _ in graphs.undo.levelsOfUndo = 1 })
    #expect(graphs.undoAll() == 1)
    #expect(graphs.shared.value.number == 0 && graphs.other.text == "before")
  }

  @Test("withoutRecording on another thread across the window: the repeat is not kept, the change is")
  func withoutRecordingAcrossTheWindow() {
    let graphs = SharedGraphs()
    var ended = false
    let held = graphs.holdingTheComparison { release in
      graphs.undo.withoutRecording {
        graphs.other.text = "quiet"
        ended = release()
      }
    }
    #expect(held && ended)
    #expect(graphs.undoAll() == 1)
    #expect(graphs.shared.value.number == 0 && graphs.other.text == "quiet")
  }
}

/// The same repeat on one thread: an observer of the shared object, told
/// between the two recordings, changes another object.
@Suite("Undo stack: a change kept between two recordings' hearing of one change")
struct UndoRepeatBetweenRecordingsTests {
  @Test("an observer told between the recordings changes another object: the shared change is kept once")
  func observerBetweenTheRecordings() {
    let gate = ComparisonGate()
    let shared = GatedItem(gate)
    let other = GatedItem(gate)
    let first = GatedList()
    let second = GatedList()
    first.items = [shared, other]
    second.items = [shared]
    let undo = KeyValueUndoStack(isolation: nil)
    let firstRecording = undo.record(first, isolation: nil)
    var told = false
    let observer = shared.observe(\.value) { _, _ in
      guard !told else { return }
      told = true
      other.text = "told"
    }
    let secondRecording = undo.record(second, isolation: nil)
    shared.value = GatedValue(number: 1, gate: gate)
    var steps = 0
    while undo.canUndo && steps < 10 {
      try? undo.undo()
      steps += 1
    }
    #expect(steps == 2)
    #expect(shared.value.number == 0 && other.text == "")
    withExtendedLifetime((firstRecording, observer, secondRecording)) {}
  }
}

extension UndoRepeatBetweenRecordingsTests {
  @Test("more changes kept between the two recordings than the stack looks back through: the shared change is kept twice")
  func beyondTheLookBack() throws {
    let gate = ComparisonGate()
    let shared = GatedItem(gate)
    let other = GatedItem(gate)
    let first = GatedList()
    let second = GatedList()
    first.items = [shared, other]
    second.items = [shared]
    let undo = KeyValueUndoStack(isolation: nil)
    let firstRecording = undo.record(first, isolation: nil)
    var told = false
    // Nine changes, each a step of its own: one more than the stack looks
    // back through (UndoState.repeatWindow).
    let observer = shared.observe(\.value) { _, _ in
      guard !told else { return }
      told = true
      for count in 1...9 { other.text = "\(count)" }
    }
    let secondRecording = undo.record(second, isolation: nil)
    shared.value = GatedValue(number: 1, gate: gate)
    var steps = 0
    while undo.canUndo && steps < 20 {
      try undo.undo()
      steps += 1
    }
    // The change, the observer's nine, and the change again: undone
    // last, the first copy finds the value already back.
    #expect(steps == 11)
    #expect(shared.value.number == 0 && other.text == "")
    withExtendedLifetime((firstRecording, observer, secondRecording)) {}
  }
}

/// What a ``RecordedObject`` holds: the object's memory, so that no
/// object made later has its address while a change of it is kept.
@Suite("Undo stack: a freed object's address is not taken while its changes are kept")
struct UndoRecordedObjectTests {
  @Test("objects made after a recorded object is freed never get its address, and their changes are undone")
  func freedObjectsAddressIsNotReused() throws {
    let outline = Outline()
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    var freed: OutlineItem? = OutlineItem("freed")
    undo.withoutRecording { outline.items = [freed!] }
    freed!.text = "kept"
    let identity = ObjectIdentifier(freed!)
    undo.withoutRecording { outline.items = [] }
    freed = nil
    // The stack's last object is the freed one: a newcomer at its address
    // would share its RecordedObject, and its change would be dropped.
    var made: [OutlineItem] = []
    for index in 0..<2_000 {
      let item = OutlineItem("new \(index)")
      #expect(ObjectIdentifier(item) != identity)
      made.append(item)
      if index % 2 == 0 { made.removeLast() }
    }
    let newcomer = OutlineItem("newcomer")
    undo.withoutRecording { outline.items = [newcomer] }
    newcomer.text = "typed"
    try undo.undo()
    #expect(newcomer.text == "")
    withExtendedLifetime(recording) {}
  }
}

/// `publish()` on one thread, held inside an observer of the mirrors,
/// while another thread changes the stack.
@Suite("Undo stack: publishing held open on a real thread")
struct UndoPublishWindowTests {
  @Test("an observer of canUndo held while another thread undoes: the mirrors end as the stack is")
  func publishHeldWhileAnotherThreadUndoes() {
    let outline = Outline()
    let undo = KeyValueUndoStack(isolation: nil)
    let recording = undo.record(outline, isolation: nil)
    let gate = ComparisonGate()
    gate.arm()
    let observer = undo.observe(\.canUndo) { undo, _ in
      if undo.canUndo { gate.compared(equal: true) }
    }
    let ended = DispatchSemaphore(value: 0)
    onNewThread {
      outline.title = "typed"
      ended.signal()
    }
    #expect(gate.waitUntilHeld())
    try? undo.undo()
    outline.title = "again"
    try? undo.undo()
    gate.release()
    #expect(ended.wait(timeout: .now() + 30) == .success)
    #expect(outline.title == "")
    #expect(!undo.canUndo && undo.canRedo)
    #expect(undo.undoActionName == "" && undo.redoActionName == "")
    try? undo.redo()
    #expect(outline.title == "again" && undo.canUndo && !undo.canRedo)
    withExtendedLifetime((recording, observer)) {}
  }
}
