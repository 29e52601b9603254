import KeyValueObserving
import Testing

@Suite("Async sequences: changes(for:) and values(for:)")
struct AsyncSequenceTests {
  @Test("changes(for:) yields each change in order, with what the options asked for; .initial first")
  func changesInOrder() async {
    let person = Person(name: "Ada", age: 36)
    let changes = person.changes(for: \.age, options: [.initial, .old, .new])
    person.age = 37
    person.age = 38
    var received: [Change<Int>] = []
    for await change in changes {
      received.append(Change(change))
      if received.count == 3 { break }
    }
    #expect(received == [Change(old: nil, new: 36), Change(old: 36, new: 37), Change(old: 37, new: 38)])
  }

  @Test("changes(for:) ends when the object deinitialises, after what was buffered")
  func endsWithObject() async {
    var person: Person? = Person()
    let changes = person!.changes(for: \.age)
    person!.age = 1
    person!.age = 2
    person = nil
    var values: [Int?] = []
    for await change in changes {
      values.append(change.newValue)
    }
    #expect(values == [1, 2])

    var another: Person? = Person(name: "Ada", age: 1)
    let names = another!.values(for: \.name, bufferingPolicy: .unbounded)
    another!.name = "Grace"
    another = nil
    var seen: [String] = []
    for await name in names { seen.append(name) }
    #expect(seen == ["Ada", "Grace"], "values(for:) ends with the object too")
  }

  @Test("cancelling the consuming task ends the registration")
  func cancellation() async {
    let person = Person()
    let changes = person.changes(for: \.age)
    let started = AsyncStream.makeStream(of: Void.self)
    person.age = 1
    let consumer = Task {
      var count = 0
      for await _ in changes {
        count += 1
        started.continuation.yield()
      }
      return count
    }
    for await _ in started.stream { break }
    consumer.cancel()
    let count = await consumer.value
    #expect(count == 1)
    #expect(person.observationInfo.isEmpty)
  }

  @Test("dropping the sequence ends the registration")
  func droppedSequence() {
    let person = Person()
    do {
      let changes = person.changes(for: \.age)
      #expect(person.observationInfo.count == 1)
      _ = changes
    }
    #expect(person.observationInfo.isEmpty)
    do {
      var iterator = person.values(for: \.name).makeAsyncIterator()
      _ = iterator
      iterator = person.values(for: \.age.description).makeAsyncIterator()
      _ = iterator
    }
    #expect(person.observationInfo.isEmpty)
  }

  @Test("values(for:) starts with the value now; by default only the newest value waits")
  func values() async {
    let person = Person(name: "Ada", age: 36)
    let names = person.values(for: \.name)
    var iterator = names.makeAsyncIterator()
    #expect(await iterator.next() == "Ada")
    person.name = "Grace"
    person.name = "Hedy"
    #expect(await iterator.next() == "Hedy", "a consumer that falls behind sees the latest value")
    person.name = "Joan"
    #expect(await iterator.next() == "Joan")
  }

  @Test("an explicit buffering policy is honoured")
  func bufferingPolicy() async {
    let person = Person()
    let changes = person.changes(for: \.age, bufferingPolicy: .bufferingOldest(2))
    for value in 1...5 { person.age = value }
    var iterator = changes.makeAsyncIterator()
    #expect(await iterator.next()?.newValue == 1)
    #expect(await iterator.next()?.newValue == 2)
    person.age = 6
    #expect(await iterator.next()?.newValue == 6, "3, 4 and 5 did not fit")
  }

  @Test("bufferingNewest keeps the latest values; unbounded keeps every one")
  func newestAndUnbounded() async {
    let person = Person()
    let newest = person.values(for: \.age, bufferingPolicy: .bufferingNewest(2))
    let every = person.values(for: \.age, bufferingPolicy: .unbounded)
    for value in 1...5 { person.age = value }
    var latest = newest.makeAsyncIterator()
    #expect(await latest.next() == 4)
    #expect(await latest.next() == 5, "0 to 3 were dropped to make room")
    var all = every.makeAsyncIterator()
    var seen: [Int] = []
    for _ in 0...5 { seen.append(await all.next() ?? -1) }
    #expect(seen == [0, 1, 2, 3, 4, 5])
  }

  @Test("computed keys and chains work as for observe")
  func derivedKeys() async {
    let resident = Resident()
    let streets = resident.values(for: \.address?.street)
    var iterator = streets.makeAsyncIterator()
    #expect(await iterator.next() == .some(nil))
    resident.address = Address(street: "Oak")
    #expect(await iterator.next() == "Oak")
    resident.address?.street = "Elm"
    #expect(await iterator.next() == "Elm")

    let person = Person(name: "Ada", age: 36)
    var summaries = person.values(for: \.summary).makeAsyncIterator()
    #expect(await summaries.next() == "Ada, 36")
    person.age = 37
    #expect(await summaries.next() == "Ada, 37")
  }

  @Test("sequences made in nonisolated synchronous code are looped in tasks, and end when the object is freed")
  func loopsInTasksFromNonisolatedCode() async {
    let printed = Recorder<String>()
    var resident: Resident? = Resident()
    resident?.name = "Ada"
    let tasks = sequenceLoops(resident!, printed)
    resident?.name = "Augusta"
    resident?.address = Address(street: "Ockham Lane")
    // Freeing the object ends both loops.
    resident = nil
    for task in tasks { await task.value }
    let lines = printed.elements
    #expect(lines.filter { $0.contains("→") } == ["Ada → Augusta"])
    #expect(lines.last { !$0.contains("→") } == "Ockham Lane", "the latest street is seen")
  }
}

/// Two sequences and their loops as the async-sequence article writes them
/// (the sequence made where the object lives, the loop in a task), from
/// nonisolated synchronous code, printing into a recorder.
nonisolated func sequenceLoops(_ resident: Resident, _ printed: Recorder<String>) -> [Task<Void, Never>] {
  let names = resident.changes(for: \.name, options: [.old, .new])
  let first = Task {
    for await change in names {
      printed.append("\(change.oldValue!) → \(change.newValue!)")
    }
  }
  let streets = resident.values(for: \.address?.street)
  let second = Task {
    for await street in streets { printed.append(street ?? "no address") }
  }
  return [first, second]
}
