import Foundation
import KeyValueObserving
import Testing

/// Opens a change with the split form from synchronous code, as a helper
/// called by async code might.
private func beginRename(_ person: Person) {
  person.willChangeValue(for: \.name)
}

private func endRename(_ person: Person) {
  person.didChangeValue(for: \.name)
}

@Suite("withChange: one manual change around a synchronous body")
struct WithChangeTests {
  @Test("withChange(for:) makes the assignments in its body one change and returns the body's result")
  func typed() {
    let person = Person()
    let changes = Recorder<Change<Int>>()
    let priors = Counter()
    let token = person.observe(\.age, options: [.old, .new, .prior]) { _, change in
      if change.isPrior { priors.increment() } else { changes.append(Change(change)) }
    }
    let result = person.withChange(for: \.age) {
      #expect(priors.count == 1, ".prior before the body")
      person.age += 1
      person.age += 1
      return person.age * 10
    }
    #expect(result == 20)
    #expect(changes.elements == [Change(old: 0, new: 2)])
    _ = token
  }

  @Test("a body that throws still closes the change, and the error reaches the caller")
  func throwingBody() {
    struct Failure: Error {}
    let person = Person()
    let changes = Recorder<Change<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    #expect(throws: Failure.self) {
      try person.withChange(for: \.age) {
        person.age = 5
        throw Failure()
      }
    }
    #expect(changes.elements == [Change(old: 0, new: 5)])
    person.age = 6
    #expect(changes.elements.last == Change(old: 5, new: 6), "nothing left open: the next write notifies")
    _ = token
  }

  @Test("the to-many and string-key forms")
  func toManyAndString() throws {
    let person = Person()
    let kinds = Recorder<String>()
    let token = person.observe(\.tags, options: [.new]) { _, change in
      kinds.append("\(change.kind) \(change.newValue ?? [])")
    }
    person.withChange(.insertion, valuesAt: [0..<2], for: \.tags) {
      person.tags.append(contentsOf: ["a", "b"])
    }
    try person.withChange(forKey: "tags") {
      person.tags = ["c"]
    }
    #expect(kinds.elements == ["insertion [\"a\", \"b\"]", "setting [\"c\"]"])
    var ran = false
    #expect(throws: KeyValueCodingError.unknownKey(key: "tgas", type: "Person")) {
      try person.withChange(forKey: "tgas") { ran = true }
    }
    #expect(!ran, "the body does not run for a bad key")
    _ = token
  }

  @Test("the string-key form throws KeyValueCodingError only: the body's, typed, after the change closes")
  func stringFormTypedThrows() {
    let person = Person()
    let changes = Recorder<Change<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    do throws(KeyValueCodingError) {
      try person.withChange(forKey: "age") { () throws(KeyValueCodingError) in
        try person.setValue(5, forKey: "age")
        try person.setValue("old", forKey: "age")
      }
      Issue.record("the body's error reaches the caller")
    } catch {
      // `error` is a KeyValueCodingError: no cast.
      #expect(error == .typeMismatch(key: "age", type: "Person", expected: "Int", actual: "String"))
    }
    #expect(changes.elements == [Change(old: 0, new: 5)], "one change, closed though the body threw")
    person.age = 6
    #expect(changes.elements.last == Change(old: 5, new: 6), "nothing left open: the next write notifies")
    _ = token
  }

  @available(*, deprecated, message: "tests the 0.1.0 form")
  @Test("the 0.1.0 string-key form still takes a body that throws any error, and closes the change")
  func stringFormUntypedBody() {
    struct Failure: Error {}
    let person = Person()
    let changes = Recorder<Change<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    #expect(throws: Failure.self) {
      try person.withChange(forKey: "age") {
        person.age = 5
        throw Failure()
      }
    }
    #expect(changes.elements == [Change(old: 0, new: 5)])
    _ = token
  }

  @Test("usable from async code: the body runs synchronously, on one thread")
  func fromAsyncCode() async {
    let person = Person()
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.name, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    await Task.yield()
    person.withChange(for: \.name) {
      person.name = "Ada"
      person.name = "Grace"
    }
    await Task.yield()
    #expect(changes.elements == [Change(old: "", new: "Grace")])
    _ = token
  }

  @Test("a will left open by a suspended task does not silence another task's writes on the same thread")
  func openWillDoesNotSilenceOtherTasks() async {
    let actor = OneThreadActor()
    let person = Person()
    // Every use of the person below runs on the actor's one thread, in turn.
    let shared = UncheckedBox(person)
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.name, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    let (gate, opener) = AsyncStream.makeStream(of: Void.self)
    let (opened, openedSignal) = AsyncStream.makeStream(of: ObjectIdentifier.self)

    // Task A: opens a will through a synchronous helper on the actor's
    // thread, then suspends before its did.
    let first = Task {
      let thread = await actor.run {
        beginRename(shared.value)
        return ObjectIdentifier(Thread.current)
      }
      openedSignal.yield(thread)
      for await _ in gate { break }
      await actor.run { endRename(shared.value) }
    }
    var threads = opened.makeAsyncIterator()
    let openerThread = await threads.next()

    // Task B, on the same thread: its writes notify as usual.
    let writerThread = await Task {
      await actor.run {
        shared.value.name = "B"
        return ObjectIdentifier(Thread.current)
      }
    }.value
    #expect(writerThread == openerThread, "both tasks ran on the actor's one thread")
    #expect(changes.elements == [Change(old: "", new: "B")])

    // Task A resumes and closes its change: one notification for it.
    opener.yield()
    await first.value
    #expect(changes.elements == [Change(old: "", new: "B"), Change(old: "", new: "B")])
    _ = token
  }
}

