import Dispatch
import Foundation
import KeyValueObserving
import Testing

/// An observer that owns its controller, as a view model would.
private final class Watcher: KeyValueObserver, @unchecked Sendable {
  // @unchecked Sendable: the recorders are thread-safe; `kvo` is set once.
  let calls = Recorder<String>()
  let contexts = Recorder<UInt>()
  lazy var kvo = KVOController(observer: self)

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    calls.append("\(keyPath)=\(change[.new] ?? "-")")
    contexts.append(UInt(bitPattern: context))
  }
}

@Suite("KVOController: observations owned by an observer")
struct KVOControllerTests {
  @Test("a block with .initial fires at registration and for each change, with the observer and the object")
  func blockWithInitial() {
    let watcher = Watcher()
    let person = Person(name: "Ada", age: 36)
    var seen: [(Watcher, Person, Int?)] = []
    watcher.kvo.observe(person, \.age, options: [.initial, .new]) { observer, object, change in
      seen.append((observer, object, change.newValue))
    }
    #expect(seen.count == 1, ".initial before observe returned")
    person.age = 37
    #expect(seen.map(\.2) == [36, 37])
    #expect(seen.allSatisfy { $0.0 === watcher && $0.1 === person })
  }

  @Test("one block serves many string key paths, each change naming its key path")
  func manyKeyPaths() throws {
    let watcher = Watcher()
    let person = Person(name: "Ada", age: 36)
    let seen = Recorder<String>()
    try watcher.kvo.observe(person, keyPaths: ["name", "age", "summary"], options: .new) { _, object, change in
      #expect(object === person)
      seen.append("\(change[.keyPath] ?? "?")=\(change[.new] ?? "-")")
    }
    person.name = "Grace"
    person.age = 40
    #expect(seen.elements == ["name=Grace", "summary=Grace, 36", "age=40", "summary=Grace, 40"])
  }

  @Test("a bad key path throws before anything is observed")
  func badKeyPaths() {
    let watcher = Watcher()
    let person = Person()
    #expect(throws: KeyValueCodingError.unknownKey(key: "nmae", type: "Person")) {
      try watcher.kvo.observe(person, keyPaths: ["age", "nmae"]) { _, _, _ in }
    }
    #expect(person.observationInfo.isEmpty)
    #expect(throws: KeyValueCodingError.notAnObservableObject(keyPath: "name.count", key: "name", type: "Person")) {
      try watcher.kvo.observe(person, keyPaths: ["age", "name.count"]) { _, _, _ in }
    }
    #expect(person.observationInfo.isEmpty, "a link that holds no observable object refuses the whole list")
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) {
      try watcher.kvo.observe(person, keyPath: "")
    }
  }

  @Test("the key paths are checked before the object, as FBKVOController asserts them: a nil object too")
  func keyPathsBeforeTheObject() throws {
    let watcher = Watcher()
    let nobody: Person? = nil
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) {
      try watcher.kvo.observe(nobody, keyPaths: []) { _, _, _ in }
    }
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) {
      try watcher.kvo.observe(nobody, keyPaths: [], context: nil)
    }
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "name.", type: "Person")) {
      try watcher.kvo.observe(nobody, keyPath: "name.")
    }
    // Well-formed key paths and no object: nothing to observe, no error.
    try watcher.kvo.observe(nobody, keyPaths: ["name", "age"]) { _, _, _ in }
    try watcher.kvo.observe(nobody, keyPath: "name", context: nil)
    let person = Person()
    person.name = "Grace"
    #expect(watcher.calls.elements.isEmpty)
    #expect(person.observationInfo.isEmpty)
  }

  @Test("the context form delivers to the observer's observeValue with the context")
  func contextDelivery() throws {
    let watcher = Watcher()
    let person = Person()
    let context = UnsafeMutableRawPointer(bitPattern: 0x5C)
    try watcher.kvo.observe(person, keyPath: "name", options: .new, context: context)
    person.name = "Ada"
    #expect(watcher.calls.elements == ["name=Ada"])
    #expect(watcher.contexts.elements == [0x5C])
  }

  @Test("a second observation of the same object and key path is ignored, by type or by string")
  func duplicates() throws {
    let watcher = Watcher()
    let person = Person()
    var calls = 0
    watcher.kvo.observe(person, \.name) { _, _, _ in calls += 1 }
    watcher.kvo.observe(person, \.name) { _, _, _ in calls += 100 }
    try watcher.kvo.observe(person, keyPaths: ["name"]) { _, _, _ in calls += 1000 }
    person.name = "Ada"
    #expect(calls == 1)
    #expect(person.observationInfo.count == 1)
  }

  @Test("a nil object is ignored")
  func nilObject() throws {
    let watcher = Watcher()
    let nobody: Person? = nil
    watcher.kvo.observe(nobody, \.name) { _, _, _ in }
    try watcher.kvo.observe(nobody, keyPaths: ["name"]) { _, _, _ in }
    watcher.kvo.unobserve(nobody)
    #expect(watcher.kvo.debugDescription.contains("0 observations"))
  }

  @Test("unobserve one key path, one object, everything; each harmless when repeated")
  func unobserving() {
    let watcher = Watcher()
    let ada = Person()
    let grace = Person()
    let seen = Recorder<String>()
    for (name, person) in [("ada", ada), ("grace", grace)] {
      watcher.kvo.observe(person, \.name) { _, _, _ in seen.append("\(name).name") }
      watcher.kvo.observe(person, \.age) { _, _, _ in seen.append("\(name).age") }
    }
    watcher.kvo.unobserve(ada, \.name)
    watcher.kvo.unobserve(ada, \.name)
    ada.name = "x"
    ada.age = 1
    watcher.kvo.unobserve(grace)
    watcher.kvo.unobserve(grace)
    grace.name = "y"
    grace.age = 2
    #expect(seen.elements == ["ada.age"])
    watcher.kvo.unobserveAll()
    watcher.kvo.unobserveAll()
    ada.age = 3
    #expect(seen.elements == ["ada.age"])
    #expect(ada.observationInfo.isEmpty && grace.observationInfo.isEmpty)
  }

  @Test("unobserving inside the .initial block leaves no registration behind (FBKVOController issue 57)")
  func unobserveInInitial() throws {
    let watcher = Watcher()
    let person = Person()
    var calls = 0
    watcher.kvo.observe(person, \.name, options: .initial) { watcher, person, _ in
      calls += 1
      watcher.kvo.unobserve(person, \.name)
    }
    try watcher.kvo.observe(person, keyPaths: ["age"], options: .initial) { watcher, person, _ in
      calls += 1
      watcher.kvo.unobserve(person, keyPath: "age")
    }
    #expect(calls == 2)
    #expect(person.observationInfo.isEmpty)
    person.name = "Ada"
    person.age = 1
    #expect(calls == 2)
  }

  @Test("a block may unobserve its own observation and others")
  func unobserveInBlock() {
    let watcher = Watcher()
    let person = Person()
    var calls = 0
    watcher.kvo.observe(person, \.age) { watcher, person, _ in
      calls += 1
      watcher.kvo.unobserveAll()
    }
    watcher.kvo.observe(person, \.name) { _, _, _ in calls += 100 }
    person.age = 1
    person.age = 2
    person.name = "x"
    #expect(calls == 1)
  }

  @Test("two blocks on two threads, each unobserving the other's observation while it runs, both return")
  func mutualUnobserve() {
    let watcher = Watcher()
    let left = Person()
    let right = Person()
    let leftRunning = DispatchSemaphore(value: 0)
    let rightRunning = DispatchSemaphore(value: 0)
    watcher.kvo.observe(left, \.age) { watcher, _, _ in
      leftRunning.signal()
      rightRunning.wait()
      watcher.kvo.unobserve(right, \.age)
    }
    watcher.kvo.observe(right, \.age) { watcher, _, _ in
      rightRunning.signal()
      leftRunning.wait()
      watcher.kvo.unobserve(left, \.age)
    }
    let done = DispatchGroup()
    let objects = UncheckedBox((left, right))
    // A thread each, of their own: on the shared pool, one write could wait
    // for a thread while the other tests hold them all, and the two blocks,
    // which wait for each other, would time out under a slow sanitizer.
    done.enter()
    Thread { objects.value.0.age = 1; done.leave() }.start()
    done.enter()
    Thread { objects.value.1.age = 1; done.leave() }.start()
    #expect(done.wait(timeout: .now() + 30) == .success, "the two blocks deadlocked")
    #expect(left.observationInfo.isEmpty && right.observationInfo.isEmpty)
  }

  @Test("one string key path with a dictionary block (FB's observe:keyPath:options:block:)")
  func oneStringKeyPathBlock() throws {
    let watcher = Watcher()
    let person = Person(name: "Ada", age: 36)
    let seen = Recorder<String>()
    try watcher.kvo.observe(person, keyPath: "name", options: [.initial, .new]) { observer, object, change in
      #expect(observer === watcher && object === person)
      seen.append("\(change[.keyPath] ?? "?")=\(change[.new] ?? "-")")
    }
    person.name = "Grace"
    #expect(seen.elements == ["name=Ada", "name=Grace"])
    #expect(throws: KeyValueCodingError.unknownKey(key: "nmae", type: "Person")) {
      try watcher.kvo.observe(person, keyPath: "nmae") { _, _, _ in }
    }
  }

  @Test("several string key paths delivered to the observer with a context (FB's observe:keyPaths:options:context:)")
  func keyPathsWithContext() throws {
    let watcher = Watcher()
    let person = Person(name: "Ada", age: 36)
    let context = UnsafeMutableRawPointer(bitPattern: 0xC0)
    try watcher.kvo.observe(person, keyPaths: ["name", "age"], options: .new, context: context)
    person.name = "Grace"
    person.age = 40
    #expect(watcher.calls.elements == ["name=Grace", "age=40"])
    #expect(watcher.contexts.elements == [0xC0, 0xC0])
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) {
      try watcher.kvo.observe(person, keyPaths: [], context: context)
    }
  }

  @Test("actions as method references: typed and by string, the observer held weakly")
  func actions() throws {
    var viewModel: ActionViewModel? = ActionViewModel()
    let person = Person(name: "Ada", age: 36)
    let log = viewModel!.log
    viewModel!.kvo.observe(person, \.name, options: [.old, .new], action: ActionViewModel.nameChanged)
    try viewModel!.kvo.observe(person, keyPath: "age", options: .new, action: ActionViewModel.ageChanged)
    person.name = "Grace"
    person.age = 37
    #expect(log.elements == ["name Ada→Grace", "age 37"])
    weak let released = viewModel
    let controller = viewModel!.kvo
    viewModel = nil
    #expect(released == nil, "the action holds no reference to the observer")
    person.name = "Edsger"
    #expect(log.count == 2, "no action after the observer is freed")
    _ = controller
  }

  @Test("several string key paths delivered to a method (FB's observe:keyPaths:options:action:)")
  func keyPathsWithAction() throws {
    let viewModel = ActionViewModel()
    let person = Person(name: "Ada", age: 36)
    try viewModel.kvo.observe(person, keyPaths: ["name", "age"], options: .new, action: ActionViewModel.ageChanged)
    person.name = "Grace"
    person.age = 40
    #expect(viewModel.log.elements == ["name Grace", "age 40"])
    #expect(throws: KeyValueCodingError.unknownKey(key: "nmae", type: "Person")) {
      try viewModel.kvo.observe(person, keyPaths: ["age", "nmae"], action: ActionViewModel.ageChanged)
    }
  }

  @Test("the controller's deinit ends every observation")
  func controllerDeinit() {
    let person = Person()
    var calls = 0
    var watcher: Watcher? = Watcher()
    watcher!.kvo.observe(person, \.age) { _, _, _ in calls += 1 }
    weak let weakWatcher = watcher
    watcher = nil
    #expect(weakWatcher == nil, "the controller does not keep its observer alive")
    person.age = 1
    #expect(calls == 0)
    #expect(person.observationInfo.isEmpty)
  }

  @Test("no block runs after its observer is freed, even while the controller lives")
  func observerDeinit() {
    let person = Person()
    var calls = 0
    var observer: Marker? = Marker()
    let kvo = KVOController(observer: observer!)
    kvo.observe(person, \.age) { _, _, _ in calls += 1 }
    person.age = 1
    observer = nil
    person.age = 2
    #expect(calls == 1)
    #expect(kvo.observer == nil)
    #expect(kvo.debugDescription.contains("observer: freed"))
  }

  @Test("a retaining controller keeps observed objects alive until unobserved")
  func retains() {
    let watcher = Watcher()
    var person: Person? = Person()
    weak let weakPerson = person
    watcher.kvo.observe(person, \.age) { _, _, _ in }
    person = nil
    #expect(weakPerson != nil)
    watcher.kvo.unobserve(weakPerson)
    #expect(weakPerson == nil)
  }

  @Test("a non-retaining controller lets observed objects go, drops their observations and stays usable")
  func doesNotRetain() {
    let observer = Marker()
    let kvo = KVOController(observer: observer, retainsObserved: false)
    var person: Person? = Person()
    weak let weakPerson = person
    kvo.observe(person, \.age) { _, _, _ in }
    person = nil
    #expect(weakPerson == nil)
    #expect(kvo.debugDescription.contains("0 observations"))
    let next = Person()
    var calls = 0
    kvo.observe(next, \.age) { _, _, _ in calls += 1 }
    next.age = 1
    #expect(calls == 1)
  }

  @Test("debugDescription lists object, key path and options")
  func debugDescription() throws {
    let watcher = Watcher()
    let person = Person()
    watcher.kvo.observe(person, \.name, options: [.old, .new]) { _, _, _ in }
    try watcher.kvo.observe(person, keyPaths: ["summary"]) { _, _, _ in }
    let description = watcher.kvo.debugDescription
    #expect(description.contains("KVOController<Watcher>"))
    #expect(description.contains("2 observations"))
    #expect(description.contains("Person 0x"))
    #expect(description.contains("name [.old, .new]") || description.contains("name [.new, .old]"))
    #expect(description.contains("summary []"))
  }

  @Test("the observed object's observationInfo names the controller: both directions of the graph")
  func bothDirections() throws {
    let watcher = Watcher()
    let person = Person()
    watcher.kvo.observe(person, \.name) { _, _, _ in }
    watcher.kvo.observe(person, \.summary) { _, _, _ in }
    try watcher.kvo.observe(person, keyPaths: ["age"]) { _, _, _ in }
    let observers = person.observationInfo.filter { !$0.observer.hasPrefix("dependency of") }.map(\.observer)
    #expect(observers == ["KVOController<Watcher>", "KVOController<Watcher>", "KVOController<Watcher>"])
  }

  @Test("observe, unobserve and deinit racing with sets on another thread: no crash, no block after unobserve returns")
  func racing() {
    let shared = UncheckedBox(Person())
    let stop = Counter()
    let lateCalls = Counter()
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      let person = shared.value
      if thread == 0 {
        // The only thread that assigns: the property itself is not shared
        // between writers.
        var value = 0
        while stop.count == 0 {
          value += 1
          person.age = value
        }
        return
      }
      for round in 0..<300 {
        let watcher = Watcher()
        let unobserved = Counter()
        watcher.kvo.observe(person, \.age) { _, _, _ in
          if unobserved.count > 0 { lateCalls.increment() }
        }
        try? watcher.kvo.observe(person, keyPaths: ["name", "age"]) { _, _, _ in
          if unobserved.count > 0 { lateCalls.increment() }
        }
        switch round % 3 {
        case 0: watcher.kvo.unobserve(person, \.age); watcher.kvo.unobserve(person)
        case 1: watcher.kvo.unobserveAll()
        default: watcher.kvo.unobserve(person)
        }
        unobserved.increment()
        if round % 2 == 0 { watcher.kvo.unobserveAll() }
        // Otherwise the controller's deinit ends what is left (nothing).
      }
      stop.increment()
    }
    #expect(lateCalls.count == 0)
    #expect(shared.value.observationInfo.isEmpty)
  }
}

/// An observer whose observations call its own methods.
private final class ActionViewModel {
  let log = Recorder<String>()
  lazy var kvo = KVOController(observer: self)

  func nameChanged(_ person: Person, _ change: KeyValueObservedChange<String>) {
    log.append("name \(change.oldValue ?? "")→\(change.newValue ?? "")")
  }

  func ageChanged(_ person: Person, _ change: [KeyValueChangeKey: Any]) {
    log.append("\(change[.keyPath] ?? "?") \(change[.new] ?? "-")")
  }
}
