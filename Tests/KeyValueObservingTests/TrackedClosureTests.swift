import KeyValueObserving
import Observation
import Testing

/// A plain `@Observable` class: Swift Observation's, not the macro's.
@Observable
final class Score: @unchecked Sendable {
  // @unchecked Sendable: the tests write it from the main actor only.
  var points = 0
}

@Suite("withKeyValueObservation: a closure observed through what it reads")
struct TrackedClosureTests {
  @Test("it runs at once, and after each change of any object it read")
  func runsAfterEachChange() {
    let person = Person(name: "Ada", age: 36)
    let shelf = Shelf()
    var seen: [String] = []
    let token = withKeyValueObservation {
      seen.append("\(person.name) \(shelf.items.count)")
    }
    person.name = "Grace"
    shelf.items.append(1)
    person.age = 40  // not read: runs nothing
    #expect(seen == ["Ada 0", "Grace 0", "Grace 1"])
    withExtendedLifetime(token) {}
  }

  @Test("each run tracks its reads anew: a branch no longer taken is no longer observed")
  func retracks() {
    let resident = Resident()
    resident.name = "Ada"
    resident.nickname = "A"
    var runs = 0
    let token = withKeyValueObservation {
      runs += 1
      _ = resident.useNickname ? resident.nickname : resident.name
    }
    resident.nickname = "B"  // not read yet
    #expect(runs == 1)
    resident.useNickname = true
    #expect(runs == 2)
    resident.name = "Grace"  // no longer read
    resident.nickname = "C"
    #expect(runs == 3)
    withExtendedLifetime(token) {}
  }

  @Test("chains, computed properties and to-many collections are followed")
  func chainsComputedAndToMany() {
    let resident = Resident()
    let shelf = Shelf()
    var seen: [String] = []
    let token = withKeyValueObservation {
      seen.append("\(resident.address?.city?.name ?? "-") \(resident.displayName) \(shelf.items)")
    }
    let oslo = City(name: "Oslo")
    resident.address = Address(street: "Main", city: oslo)
    oslo.name = "Bergen"
    resident.name = "Ada"
    shelf.mutableArrayValue(for: \.items).append(contentsOf: [1, 2])
    let replaced = resident.address!
    resident.address = nil
    replaced.city?.name = "Trondheim"  // the old link is no longer observed
    #expect(seen == ["-  []", "Oslo  []", "Bergen  []", "Bergen Ada []", "Bergen Ada [1, 2]", "- Ada [1, 2]"])
    withExtendedLifetime(token) {}
  }

  @Test("changes inside one withChange, one will/did pair or one didSet that changes another key run it once")
  func oneRunPerChange() {
    let resident = Resident()
    var runs = 0
    let token = withKeyValueObservation {
      runs += 1
      _ = "\(resident.celsius) \(resident.fahrenheit) \(resident.name)"
    }
    resident.celsius = 100  // its didSet sets fahrenheit
    #expect(runs == 2)
    resident.withChange(for: \.name) {
      resident.name = "Ada"
      resident.fahrenheit = 0
    }
    #expect(runs == 3)
    resident.willChangeValue(for: \.name)
    resident.name = "Grace"
    resident.didChangeValue(for: \.name)
    #expect(runs == 4)
    withExtendedLifetime(token) {}
  }

  @Test("a run that writes a key it reads sees its write and does not run again for it")
  func writesWhatItReads() {
    let person = Person()
    var runs = 0
    let token = withKeyValueObservation {
      runs += 1
      // Keeps a derived key in step: reads `age`, writes it.
      if person.age < 18 { person.age = 18 }
      person.nickname = "\(person.name) (\(person.age))"
    }
    #expect(runs == 1 && person.nickname == " (18)")
    person.name = "Ada"
    #expect(runs == 2 && person.nickname == "Ada (18)")
    person.age = 3  // one run, which writes 18 back
    #expect(runs == 3 && person.age == 18)
    withExtendedLifetime(token) {}
  }

  @Test("the value form hands the value's own old and new values, .initial and .prior included")
  func valueForm() {
    let person = Person(name: "Ada", age: 36)
    var changes: [String] = []
    let token = withKeyValueObservation(of: { "\(person.name), \(person.age)" }, options: [.old, .new, .initial, .prior]) { change in
      changes.append("\(change.isPrior ? "prior " : "")\(change.oldValue ?? "nil") → \(change.newValue ?? "nil")")
    }
    person.age = 37
    #expect(changes == ["nil → Ada, 36", "prior Ada, 36 → nil", "Ada, 36 → Ada, 37"])
    withExtendedLifetime(token) {}
  }

  @Test("invalidating or releasing the token ends it and releases the closure")
  func tokenEnds() {
    let person = Person()
    weak var weakMarker: Marker?
    var runs = 0
    var token: KeyValueObservation? = {
      let marker = Marker()
      weakMarker = marker
      return withKeyValueObservation {
        withExtendedLifetime(marker) {}
        runs += 1
        _ = person.name
      }
    }()
    #expect(token?.isActive == true)
    token?.invalidate()
    token?.invalidate()
    #expect(token?.isActive == false)
    #expect(weakMarker == nil)
    person.name = "Ada"
    #expect(runs == 1)

    token = withKeyValueObservation { runs += 1; _ = person.name }
    token = nil
    person.name = "Grace"
    #expect(runs == 2)
  }

  @Test("invalidating the token releases the closure also while Swift Observation still holds its handler")
  func tokenEndsWithObservationTracking() {
    let score = Score()
    weak var weakMarker: Marker?
    let token: KeyValueObservation = {
      let marker = Marker()
      weakMarker = marker
      return withKeyValueObservation {
        withExtendedLifetime(marker) {}
        _ = score.points
      }
    }()
    #expect(token.isActive)
    token.invalidate()
    // Observation keeps the handler of the last run until `points` changes.
    #expect(weakMarker == nil)
    withExtendedLifetime(score) {}
  }

  @Test("a freed object stops being observed; once all are freed the token is inactive and the closure released")
  func freedObjects() {
    var first: Person? = Person()
    let second = Person()
    weak var weakMarker: Marker?
    var runs = 0
    let token: KeyValueObservation = {
      let marker = Marker()
      weakMarker = marker
      weak let weakFirst = first
      return withKeyValueObservation { [second] in
        withExtendedLifetime(marker) {}
        runs += 1
        _ = (weakFirst?.name ?? "") + second.name
      }
    }()
    first = nil
    #expect(token.isActive)
    second.name = "Ada"
    #expect(runs == 2)
    var last: Person? = Person()
    weak var weakLastMarker: Marker?
    let lastToken: KeyValueObservation = {
      weak let weakLast = last
      let marker = Marker()
      weakLastMarker = marker
      return withKeyValueObservation {
        withExtendedLifetime(marker) {}
        _ = weakLast?.name
      }
    }()
    #expect(weakLastMarker != nil)
    last = nil
    #expect(!lastToken.isActive)
    #expect(weakLastMarker == nil, "the ended closure is released though its token lives")
    lastToken.invalidate()
    #expect(!lastToken.isActive)
    withExtendedLifetime(token) {}
    #expect(weakMarker != nil)
  }

  @Test("a closure that reads nothing observable runs once, is reported, and ends")
  func readsNothing() {
    var runs = 0
    let diagnostics = capturingDiagnostics {
      let token = withKeyValueObservation { runs += 1 }
      #expect(!token.isActive)
    }
    #expect(runs == 1)
    #expect(diagnostics.map(\.kind) == [.unobservableKeyPath])
  }

  @Test("it appears in the observation graph, with an edge to each key it reads")
  func graph() {
    let person = Person()
    let shelf = Shelf()
    let token = withKeyValueObservation { _ = person.name + shelf.title }
    let graph = KeyValueObservationGraph(from: [person])
    #expect(graph.nodes.map(\.label).contains { $0.hasPrefix("withKeyValueObservation closure") })
    #expect(Set(graph.edges.map(\.key)) == ["name", "title"])
    #expect(graph.edges.allSatisfy { $0.kind == .token })
    withExtendedLifetime(token) {}
  }

  @Test("coalesced: the changes of one main-actor turn give one run, after it")
  @MainActor
  func coalescedOnTheMainActor() async {
    let person = Person(name: "Ada", age: 36)
    let (runs, continuation) = AsyncStream.makeStream(of: String.self)
    let token = withKeyValueObservation(tracking: .coalesced) {
      continuation.yield("\(person.name) \(person.age)")
    }
    var iterator = runs.makeAsyncIterator()
    #expect(await iterator.next() == "Ada 36")
    person.name = "Grace"
    person.age = 40
    person.name = "Hedy"
    #expect(await iterator.next() == "Hedy 40")
    person.age = 41
    #expect(await iterator.next() == "Hedy 41")
    withExtendedLifetime(token) {}
  }

  @Test("coalesced with no actor is reported, and runs after each change")
  func coalescedWithoutActor() {
    let person = Person()
    var runs = 0
    let diagnostics = capturingDiagnostics {
      let token = nonisolatedCoalesced { runs += 1; _ = person.name }
      person.name = "Ada"
      withExtendedLifetime(token) {}
    }
    #expect(runs == 2)
    #expect(diagnostics.map(\.kind) == [.coalescingWithoutActor])
  }

  @Test("an @Observable class's change runs it after the change, on its actor")
  @MainActor
  func observableClass() async {
    let score = Score()
    let person = Person()
    let (runs, continuation) = AsyncStream.makeStream(of: String.self)
    let token = withKeyValueObservation {
      continuation.yield("\(score.points) \(person.name)")
    }
    var iterator = runs.makeAsyncIterator()
    #expect(await iterator.next() == "0 ")
    score.points = 1
    #expect(await iterator.next() == "1 ")
    person.name = "Ada"  // told at once, through its registration
    #expect(await iterator.next() == "1 Ada")
    score.points = 2  // still observed after the runs in between
    #expect(await iterator.next() == "2 Ada")
    withExtendedLifetime(token) {}
  }
}

extension TrackedClosureTests {
  @Test("a class both @KeyValueObservable and Observable runs it once per change, not again for Observation")
  @MainActor
  func bothKindsOfClass() async {
    let sheet = Sheet()
    let score = Score()
    let (runs, continuation) = AsyncStream.makeStream(of: String.self)
    let token = withKeyValueObservation {
      continuation.yield("\(sheet.title) \(score.points)")
    }
    var iterator = runs.makeAsyncIterator()
    #expect(await iterator.next() == " 0")
    sheet.title = "A"  // at once, through its registration
    #expect(await iterator.next() == "A 0")
    // A second run for Observation's report of the same change would come
    // before or after this one, as "A 0" or "A 1".
    score.points = 1
    #expect(await iterator.next() == "A 1")
    score.points = 2
    #expect(await iterator.next() == "A 2")
    withExtendedLifetime(token) {}
  }
}

/// `withKeyValueObservation(tracking: .coalesced)` from code isolated to no actor.
nonisolated func nonisolatedCoalesced(_ apply: @escaping () -> Void) -> KeyValueObservation {
  withKeyValueObservation(tracking: .coalesced, apply)
}
