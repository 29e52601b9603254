// The graph's change path where it trades checks for speed: interned keys
// held `unowned(unsafe)`, the graph held `Unmanaged`, the existential put
// together from the class's witness table, and a setting's values compared
// before they are boxed. Each forced with the schedule explorer, counted,
// or run on two real threads for the thread sanitizer.
@testable import KeyValueObserving
import Foundation
import Testing

// MARK: Models

@KeyValueObservable
class PathNode: @unchecked Sendable {
  var value = 0
  var children: [PathNode] = []
  var plain: PathPlain?
}

@KeyValueObservable
final class PathMarkedLeaf: PathNode, @unchecked Sendable {
  var extra = ""
}

/// Not marked: a dynamic type of its own, its superclass's key table.
final class PathUnmarkedLeaf: PathNode, @unchecked Sendable {}

@KeyValueObservable
class PathGenericNode<Tag>: @unchecked Sendable {
  var value = 0
  var children: [PathGenericNode<Tag>] = []
}

final class PathGenericLeaf<Tag>: PathGenericNode<Tag>, @unchecked Sendable {}
final class PathIntLeaf: PathGenericNode<Int>, @unchecked Sendable {}

/// Not `@KeyValueObservable`: a link to it is reported, not followed.
final class PathPlain: @unchecked Sendable {}

@KeyValueObservable
final class PathOptionals: @unchecked Sendable {
  var name: String?
  var nested: Int?? = nil
  var reference: PathEquatableReference?
}

class PathEquatableReference: Equatable, @unchecked Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
  static func == (lhs: PathEquatableReference, rhs: PathEquatableReference) -> Bool { lhs.number == rhs.number }
}

final class PathEquatableSubreference: PathEquatableReference, @unchecked Sendable {}

/// What a value's `==` checks while it runs.
final class PathLockProbe: @unchecked Sendable {
  weak var stack: KeyValueUndoStack?
  var graph: GraphObservation?
  weak var item: PathProbed?
  var comparisons = 0
  var problems: [String] = []
}

struct PathProbedValue: Equatable, @unchecked Sendable {
  var number: Int
  let probe: PathLockProbe

  static func == (lhs: PathProbedValue, rhs: PathProbedValue) -> Bool {
    let probe = lhs.probe
    probe.comparisons += 1
    if probe.stack?.isLocked == true { probe.problems.append("the undo stack's lock held") }
    // Takes the graph's lock: a deadlock if `==` ran under it.
    _ = probe.graph?.objectCount
    // Takes the item's storage lock: likewise.
    if let item = probe.item {
      let token = item.observe(\.other) { _, _ in }
      token.invalidate()
    }
    return lhs.number == rhs.number
  }
}

@KeyValueObservable
final class PathProbed: @unchecked Sendable {
  var value: PathProbedValue
  var optionalValue: PathProbedValue?
  var other = 0

  init(_ value: PathProbedValue) { self.value = value }
}

// MARK: Support

enum PathZero<T> {}
enum PathOne<T> {}

/// Code run with a type no earlier call had: a new specialisation of two
/// generic enums, nested by the bits of a number that is never reused.
protocol PathTypeBody {
  associatedtype Result
  func run<T>(_: T.Type) -> Result
}

private let freshNumbers = LockedNumber()

final class LockedNumber: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 1
  func take() -> Int { lock.withLock { defer { next += 1 }; return next } }
}

func withFreshType<Body: PathTypeBody>(_ body: Body) -> Body.Result {
  func nest<T>(_: T.Type, _ rest: Int) -> Body.Result {
    if rest == 0 { return body.run(T.self) }
    return rest & 1 == 0 ? nest(PathZero<T>.self, rest >> 1) : nest(PathOne<T>.self, rest >> 1)
  }
  return nest(Void.self, freshNumbers.take())
}

final class PathChanges: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [KeyValueGraphChange] = []
  func append(_ change: KeyValueGraphChange) { lock.withLock { storage.append(change) } }
  var elements: [KeyValueGraphChange] { lock.withLock { storage } }
  func removeAll() { lock.withLock { storage.removeAll() } }
}

final class PathSlot<Value>: @unchecked Sendable {
  var value: Value?
  init(_ value: Value? = nil) { self.value = value }
}

// MARK: Tests

@Suite("The graph's unsafe change path: interned keys, a borrowed graph, a built existential", .serialized)
struct GraphUnsafePathTests {
  /// `object`'s changes heard through a graph from `root`: each change's
  /// object is `object` itself, of its dynamic type, reached through the
  /// existential's witness table; it owns one reference to it.
  private func checkObservable<Root: KeyValueObservable>(
    from root: Root,
    object: AnyObject,
    write: @escaping (Int) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let kept = PathChanges()
    let keeping = PathSlot(false)
    let problems = PathSlot<[String]>([])
    let expectedType = ObjectIdentifier(type(of: object))
    let expectedStorage = (object as! any KeyValueObservable)._$kvoStorage()
    let expectedCount = type(of: object as! any KeyValueObservable)._$kvoKeyCount
    let token = root.observeGraph(options: [.old, .new]) { change in
      guard change.key == "value", (change.object as AnyObject) === object else { return }
      if ObjectIdentifier(type(of: change.object)) != expectedType { problems.value!.append("dynamic type") }
      // Requirements called through the witness table put in the existential.
      if change.object._$kvoStorage() !== expectedStorage { problems.value!.append("storage") }
      if type(of: change.object)._$kvoKeyCount != expectedCount { problems.value!.append("key count") }
      if keeping.value! { kept.append(change) }
    }
    write(-1)
    let base = _getRetainCount(object)
    for number in 0..<1000 { write(number) }
    #expect(_getRetainCount(object) == base, "changes not kept left references", sourceLocation: sourceLocation)
    keeping.value = true
    for number in 0..<100 { write(number) }
    #expect(kept.elements.count == 100, sourceLocation: sourceLocation)
    #expect(_getRetainCount(object) == base + 100, "each kept change owns one reference", sourceLocation: sourceLocation)
    keeping.value = false
    kept.removeAll()
    #expect(_getRetainCount(object) == base, sourceLocation: sourceLocation)
    #expect(problems.value! == [], sourceLocation: sourceLocation)
    token.invalidate()
  }

  @Test("the existential put together owns one reference, for final, subclassed, unmarked and generic classes")
  func observableOwnsOneReference() {
    let root = PathNode()
    let plainNode = PathNode()
    let marked = PathMarkedLeaf()
    let unmarked = PathUnmarkedLeaf()
    root.children = [plainNode, marked, unmarked]
    for node in [root, plainNode, marked, unmarked] {
      checkObservable(from: root, object: node) { node.value = $0 }
    }
    let stringRoot = PathGenericNode<String>()
    let stringLeaf = PathGenericLeaf<String>()
    stringRoot.children = [stringLeaf]
    for node in [stringRoot, stringLeaf] {
      checkObservable(from: stringRoot, object: node) { node.value = $0 }
    }
    let intRoot = PathGenericNode<Int>()
    let intLeaf = PathIntLeaf()
    let genericIntLeaf = PathGenericLeaf<Int>()
    intRoot.children = [intLeaf, genericIntLeaf]
    for node in [intRoot, intLeaf, genericIntLeaf] {
      checkObservable(from: intRoot, object: node) { node.value = $0 }
    }
  }

  @Test("the object the class's witness table was read from is freed once the graph ends: the read balanced")
  func firstObjectFreed() {
    weak var weakRoot: PathNode?
    weak var weakChild: PathGenericLeaf<Double>?
    do {
      let root = PathNode()
      let child = PathMarkedLeaf()
      root.children = [child]
      let generic = PathGenericNode<Double>()
      let genericChild = PathGenericLeaf<Double>()
      generic.children = [genericChild]
      weakRoot = root
      weakChild = genericChild
      let tokens = [root.observeGraph { _ in }, generic.observeGraph { _ in }]
      child.value = 1
      genericChild.value = 1
      for token in tokens { token.invalidate() }
    }
    #expect(weakRoot == nil)
    #expect(weakChild == nil)
  }

  @Test("two real threads interning fresh classes at once, many times (for the thread sanitizer)")
  func internRaceStress() {
    struct Stress: PathTypeBody {
      func run<T>(_: T.Type) -> [String] {
        let roots = [PathGenericNode<T>(), PathGenericNode<T>()]
        let heard = [PathChanges(), PathChanges()]
        let tokens = [PathSlot<KeyValueObservation>(), PathSlot<KeyValueObservation>()]
        let start = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        for index in 0..<2 {
          let root = UncheckedSendable(roots[index])
          onNewThread {
            start.wait()
            tokens[index].value = root.value.observeGraph { heard[index].append($0) }
            ended.signal()
          }
        }
        start.signal()
        start.signal()
        ended.wait()
        ended.wait()
        for root in roots { root.value = 1 }
        let keys = heard.map { $0.elements.first { $0.key == "value" }?.graphKey }
        guard let first = keys[0], let second = keys[1] else { return ["not heard"] }
        return first === second ? [] : ["two keys for one slot"]
      }
    }
    for _ in 0..<200 {
      #expect(withFreshType(Stress()) == [])
    }
  }

  @Test("scheduled: two graphs interning one new class on two threads hold one key per slot", .enabled(if: SchedulePoint.areCompiledIn))
  func internRaceScheduled() {
    struct Scenario: PathTypeBody {
      func run<T>(_: T.Type) -> ScenarioRun {
        let roots = [PathGenericNode<T>(), PathGenericNode<T>()]
        _ = PathGenericNode<T>._$kvoKeys
        let heard = [PathChanges(), PathChanges()]
        let tokens = [PathSlot<KeyValueObservation>(), PathSlot<KeyValueObservation>()]
        return ScenarioRun(
          threads: [
            { tokens[0].value = roots[0].observeGraph { heard[0].append($0) } },
            { tokens[1].value = roots[1].observeGraph { heard[1].append($0) } },
          ],
          check: {
            for root in roots { root.value = 1 }
            let keys = heard.map { $0.elements.first { $0.key == "value" }?.graphKey }
            guard let first = keys[0], let second = keys[1] else { return "a graph did not hear its root" }
            if first !== second { return "two graphs of one class hold two keys for one slot" }
            for token in tokens { token.value = nil }
            for change in heard.flatMap(\.elements) where change.keyPath != \PathGenericNode<T>.value && change.key == "value" {
              return "a stored change's key path changed"
            }
            return nil
          }
        )
      }
    }
    ScheduleExplorer("graph path: two graphs intern one new class", randomSchedules: 200, exhaustiveLimit: 500).explore {
      withFreshType(Scenario())
    }
  }

  @Test("scheduled: a link's change racing invalidate() and the release of the token and the root", .enabled(if: SchedulePoint.areCompiledIn))
  func linkChangeRacingEndAndRelease() {
    final class Notes: @unchecked Sendable {
      weak var captured: PathPlain?
      var token: KeyValueObservation?
      var root: PathNode?
    }
    ScheduleExplorer("graph path: a link's change racing the graph's end and release").explore {
      let notes = Notes()
      let child = PathNode()
      let grandchild = PathNode()
      notes.root = PathNode()
      notes.root!.children = [child]
      notes.token = {
        let captured = PathPlain()
        notes.captured = captured
        return notes.root!.observeGraph { change in
          _ = captured
          _ = (change.key, change.keyPath, change.object)
        }
      }()
      return ScenarioRun(
        threads: [
          // A link's change: followed under the graph's lock, through
          // the graph its class borrows.
          { child.children = [grandchild] },
          // The token and the root, the graph's owners but for its classes.
          {
            notes.token?.invalidate()
            notes.token = nil
            notes.root = nil
          },
        ],
        check: {
          child.children = []
          grandchild.value = 1
          return notes.captured == nil ? nil : "the graph, its handler or its captures outlived its end"
        }
      )
    }
  }

  @Test("equal settings of optional keys are dropped, unequal ones (nil against .some(nil)) kept")
  func optionalSettingsCompared() throws {
    let model = PathOptionals()
    let undo = KeyValueUndoStack(isolation: nil)
    let token = undo.record(model, isolation: nil)
    model.name = nil
    model.nested = nil
    #expect(!undo.canUndo, "a setting of nil to nil was kept")
    model.nested = .some(nil)
    #expect(undo.canUndo, "nil to .some(nil) is a change")
    try undo.undo()
    #expect(model.nested == nil)
    #expect(!undo.canUndo)
    model.name = "a"
    model.name = "a"
    model.reference = PathEquatableReference(1)
    model.reference = PathEquatableSubreference(1)
    try undo.undo()
    #expect(model.reference == nil, "the subclass instance equal by == was dropped, the first setting undone")
    try undo.undo()
    #expect(model.name == nil)
    #expect(!undo.canUndo)
    withExtendedLifetime(token) {}
  }

  @Test("a setting's == runs with no lock of the library held: the undo stack's, the graph's, the object's storage's")
  func equalityOutsideEveryLock() {
    let probe = PathLockProbe()
    let item = PathProbed(PathProbedValue(number: 0, probe: probe))
    item.optionalValue = PathProbedValue(number: 0, probe: probe)
    probe.item = item
    let undo = KeyValueUndoStack(isolation: nil)
    probe.stack = undo
    let graph = GraphObservation(
      root: item, options: [.old, .new], site: RegistrationSite(fileID: #fileID, line: #line),
      handler: UndoRecording(stack: undo, number: 1, isolation: nil)
    )
    let token = KeyValueObservation(owning: graph)
    graph.start(from: item)
    probe.graph = graph
    // Made on this thread: an `==` called under a lock it takes again
    // would hang here (the library's locks are not reentrant).
    item.value = PathProbedValue(number: 0, probe: probe)
    item.value = PathProbedValue(number: 1, probe: probe)
    item.optionalValue = PathProbedValue(number: 0, probe: probe)
    item.optionalValue = nil
    #expect(probe.comparisons >= 2)
    #expect(probe.problems == [])
    probe.graph = nil
    token.invalidate()
  }
}
