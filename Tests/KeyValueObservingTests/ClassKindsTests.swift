import KeyValueObserving
import Testing

@Suite("Non-final, generic and subclassed observable classes")
struct ClassKindsTests {
  @Test("a subclass adds its own keys after its superclass's; both kinds notify")
  func subclassKeys() {
    let truck = Truck()
    let seen = Recorder<String>()
    let tokens = [
      truck.observe(\.wheels, options: .new) { _, change in seen.append("wheels \(change.newValue!)") },
      truck.observe(\.payload, options: .new) { _, change in seen.append("payload \(change.newValue!)") },
      truck.observe(\.name, options: .new) { _, change in seen.append("name \(change.newValue!)") },
    ]
    truck.wheels = 6
    truck.payload = 1.5
    truck.name = "big"
    #expect(seen.elements == ["wheels 6", "payload 1.5", "name big"])
    _ = tokens
  }

  @Test("the key table numbers keys through the hierarchy, each with its name")
  func keyTable() {
    #expect(Vehicle._$kvoKeyCount == 2)
    #expect(Truck._$kvoKeyCount == 3)
    #expect(TowTruck._$kvoKeyCount == 4)
    #expect(TowTruck._$kvoSlot(for: \TowTruck.wheels) == 0)
    #expect(TowTruck._$kvoSlot(for: \TowTruck.name) == 1)
    #expect(TowTruck._$kvoSlot(for: \TowTruck.payload) == 2)
    #expect(TowTruck._$kvoSlot(for: \TowTruck.towing) == 3)
    #expect(Vehicle._$kvoSlot(for: \Vehicle.name) == 1)
    #expect((0..<4).map { TowTruck._$kvoKey(forSlot: $0) } == ["wheels", "name", "payload", "towing"])
    #expect(TowTruck._$kvoKey(forSlot: 4) == nil)
    #expect(Vehicle._$kvoKey(forSlot: 2) == nil)
    #expect(TowTruck._$kvoSlot(forKey: "payload") == 2)
    #expect(TowTruck._$kvoSlot(forKey: "wheels") == 0)
    #expect(Truck._$kvoSlot(forKey: "towing") == nil)
  }

  @Test("constants, computed, static, lazy and ignored properties get no key")
  func untouchedMembers() {
    #expect(Person._$kvoKeyCount == 4)
    #expect(Person._$kvoSlot(for: \Person.id) == nil)
    #expect(Person._$kvoSlot(for: \Person.summary) == nil)
    #expect(Person._$kvoSlot(for: \Person.cache) == nil)
    #expect(Person._$kvoSlot(for: \Person.greeting) == nil)
    #expect(Person._$kvoSlot(forKey: "cache") == nil)
    #expect((0..<4).map { Person._$kvoKey(forSlot: $0) } == ["name", "age", "nickname", "tags"])
  }

  @Test("a subclass instance observed through its superclass type")
  func observeThroughSuperclassType() {
    let truck: Vehicle = Truck()
    let counter = Counter()
    let token = truck.observe(\.wheels) { _, _ in counter.increment() }
    truck.wheels = 8
    (truck as! Truck).payload = 3
    #expect(counter.count == 1)
    _ = token
  }

  @Test("observers of base and subclass keys on the same object stay apart")
  func baseAndSubclassSlotsDistinct() {
    let tow = TowTruck()
    let wheels = Counter()
    let towing = Counter()
    let tokens = [
      tow.observe(\.wheels) { _, _ in wheels.increment() },
      tow.observe(\.towing) { _, _ in towing.increment() },
    ]
    tow.towing = "car"
    tow.towing = nil
    tow.wheels = 10
    #expect(wheels.count == 1)
    #expect(towing.count == 2)
    #expect(tow.observationInfo.map(\.keyPath) == ["wheels", "towing"])
    _ = tokens
  }

  @Test("a key path rooted at a subclass finds its slot again on every observation")
  func repeatedSubclassLookups() {
    let tow = TowTruck()
    let counter = Counter()
    var tokens: [KeyValueObservation] = []
    for _ in 0..<3 {
      tokens.append(tow.observe(\.wheels) { _, _ in counter.increment() })
      tokens.append(tow.observe(\.payload) { _, _ in counter.increment() })
      tokens.append(tow.observe(\.towing) { _, _ in counter.increment() })
    }
    tow.wheels = 1
    tow.payload = 2
    tow.towing = "x"
    #expect(counter.count == 9)
    #expect(Truck._$kvoSlot(for: \TowTruck.towing) == nil, "a key the asked class does not have")
    _ = tokens
  }

  @Test("a generic class observes properties of its generic type")
  func genericClass() {
    let box = Box([1, 2])
    let changes = Recorder<KeyValueObservedChange<[Int]>>()
    let token = box.observe(\.content, options: [.initial, .old, .new]) { _, change in changes.append(change) }
    box.content.append(3)
    #expect(
      changes.elements == [
        KeyValueObservedChange(kind: .setting, newValue: [1, 2]),
        KeyValueObservedChange(kind: .setting, newValue: [1, 2, 3], oldValue: [1, 2]),
      ]
    )
    let other = Box("text")
    let strings = Recorder<String>()
    let second = other.observe(\.content, options: .new) { _, change in strings.append(change.newValue!) }
    other.content = "more"
    #expect(strings.elements == ["more"])
    #expect(Box<Int>._$kvoSlot(for: \Box<Int>.revision) == 1)
    _ = (token, second)
  }

  @Test("a property whose name needs backticks is observable under its plain name")
  func backtickedName() {
    let settings = Settings()
    let values = Recorder<Int>()
    let token = settings.observe(\.default, options: .new) { _, change in values.append(change.newValue!) }
    settings.default = 3
    #expect(values.elements == [3])
    #expect(Settings._$kvoKey(forSlot: 0) == "default")
    _ = token
  }

  @Test("a @MainActor class is observable from the main actor")
  @MainActor
  func mainActorClass() {
    let model = MainActorModel()
    let titles = Recorder<String>()
    let token = model.observe(\.title, options: .new) { _, change in titles.append(change.newValue!) }
    model.title = "Hello"
    #expect(titles.elements == ["Hello"])
    _ = token
  }

  @Test("a computed property of a @MainActor class is observable too")
  @MainActor
  func mainActorComputed() {
    let model = MainActorModel()
    let values = Recorder<String>()
    let token = model.observe(\.shout, options: .new) { _, change in values.append(change.newValue!) }
    model.title = "hi"
    #expect(values.elements == ["HI"])
    _ = token
  }

  @Test("chains and computed keys work through generic classes and subclasses")
  func derivedOnGenericAndSubclass() {
    let box = Box(Address(street: "Elm"))
    let streets = Recorder<String>()
    let boxToken = box.observe(\.content.street, options: .new) { _, change in streets.append(change.newValue!) }
    box.content.street = "Oak"
    box.content = Address(street: "Ash")
    #expect(streets.elements == ["Oak", "Ash"])

    let truck = TowTruck()
    let labels = Recorder<String>()
    let truckToken = truck.observe(\.label, options: .new) { _, change in labels.append(change.newValue!) }
    truck.wheels = 6
    truck.towing = "car"
    #expect(labels.elements == ["6 wheels, none", "6 wheels, car"])
    _ = (boxToken, truckToken)
  }

  @Test("a class named with a keyword in backticks is observable")
  func keywordClassName() {
    let type = `Type`()
    let counts = Recorder<Int>()
    let token = type.observe(\.count, options: .new) { _, change in counts.append(change.newValue!) }
    type.count = 1
    #expect(counts.elements == [1])
    #expect(`Type`._$kvoKey(forSlot: 0) == "count")
    _ = token
  }

  @Test("a class that writes its own == keeps it, and still notifies")
  func ownEqualityOperator() {
    let first = EqualByCount(), second = EqualByCount()
    second.label = "other"
    #expect(first == second, "the class's own == compares count only")
    let counts = Recorder<Int>()
    let token = first.observe(\.count, options: .new) { _, change in counts.append(change.newValue!) }
    first.count = 2
    #expect(first != second)
    #expect(counts.elements == [2])
    _ = token
  }
}

extension TowTruck {
  /// Reads an inherited key and the class's own.
  var label: String { "\(wheels) wheels, \(towing ?? "none")" }
}

/// A property named with a keyword.
@KeyValueObservable
final class Settings {
  var `default` = 0
}

/// Declares `==` inside the class, which a member macro naming
/// `arbitrary` names would hide (swiftlang/swift#84691).
@KeyValueObservable
final class EqualByCount: Equatable {
  var count = 0
  var label = ""
  static func == (lhs: EqualByCount, rhs: EqualByCount) -> Bool { lhs.count == rhs.count }
}

/// A class named with a keyword, in backticks.
@KeyValueObservable
final class `Type` {
  var count = 0
}
