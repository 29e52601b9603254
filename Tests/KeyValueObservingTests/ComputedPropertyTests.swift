import KeyValueObserving
import Testing

@Suite("Computed properties: dependencies found by running the getter")
struct ComputedPropertyTests {
  @Test("a change of a dependency notifies with the computed property's own old and new values")
  func oldAndNewAreTheComputedValues() {
    let person = Person(name: "Ada", age: 36)
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.summary, options: [.old, .new]) { _, change in
      changes.append(Change(change))
    }
    person.age = 37
    person.name = "Grace"
    #expect(
      changes.elements == [
        Change(old: "Ada, 36", new: "Ada, 37"),
        Change(old: "Ada, 37", new: "Grace, 37"),
      ]
    )
    _ = token
  }

  @Test("without .old or .new the change carries no values, and every dependency change notifies")
  func noValuesRequested() {
    let person = Person()
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.summary) { _, change in changes.append(Change(change)) }
    person.name = "a"
    person.age = 1
    #expect(changes.elements == [Change(old: nil, new: nil), Change(old: nil, new: nil)])
    _ = token
  }

  @Test("dependencies are tracked again after each change: a getter that branches is followed")
  func dynamicDependencies() {
    let resident = Resident()
    resident.name = "Margaret"
    resident.nickname = "Maggie"
    let values = Recorder<String>()
    let token = resident.observe(\.displayName, options: .new) { _, change in values.append(change.newValue!) }

    resident.nickname = "Meg"  // not read now: no notification
    #expect(values.elements == [])
    resident.useNickname = true
    #expect(values.elements == ["Meg"])
    resident.name = "Peggy"  // no longer read
    #expect(values.elements == ["Meg"])
    resident.nickname = "Mags"
    #expect(values.elements == ["Meg", "Mags"])
    resident.useNickname = false
    resident.nickname = "ignored"
    #expect(values.elements == ["Meg", "Mags", "Peggy"])
    _ = token
  }

  @Test("a getter that reads a key twice keeps the same registrations across changes, and hears every key")
  func repeatedReads() {
    let square = Square()
    let values = Recorder<String>()
    let token = square.observe(\.summary, options: .new) { _, change in values.append(change.newValue!) }
    let registered = allRegistrations(on: square)
    #expect(registered.count == 3)  // the observation, side, label
    for side in 1...3 {
      square.side = side
    }
    square.label = "m²"
    #expect(allRegistrations(on: square) == registered)
    #expect(values.elements == ["1 ", "4 ", "9 ", "9 m²"])
    _ = token
  }

  @Test("one assignment that changes two dependencies (through a didSet) notifies once")
  func nestedDependencyChangesNotifyOnce() {
    let resident = Resident()
    let changes = Recorder<Change<String>>()
    let token = resident.observe(\.reading, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    resident.celsius = 100
    #expect(changes.elements == [Change(old: "0.0C 32.0F", new: "100.0C 212.0F")])
    _ = token
  }

  @Test(".prior delivers the old computed value before the change, while the object still holds it")
  func priorSeesTheOldValue() {
    let person = Person(name: "Ada", age: 36)
    let seen = Recorder<String>()
    let token = person.observe(\.summary, options: [.old, .new, .prior]) { person, change in
      if change.isPrior {
        #expect(change.newValue == nil)
        seen.append("prior old=\(change.oldValue!) object=\(person.summary)")
      } else {
        seen.append("after old=\(change.oldValue!) new=\(change.newValue!)")
      }
    }
    person.age = 40
    #expect(
      seen.elements == [
        "prior old=Ada, 36 object=Ada, 36",
        "after old=Ada, 36 new=Ada, 40",
      ]
    )
    _ = token
  }

  @Test(".initial delivers the computed value at registration, never an old value")
  func initial() {
    let person = Person(name: "Ada", age: 36)
    let changes = Recorder<Change<String>>()
    let token = person.observe(\.summary, options: [.initial, .old, .new]) { _, change in
      changes.append(Change(change))
    }
    #expect(changes.elements == [Change(old: nil, new: "Ada, 36")])
    _ = token
  }

  @Test("invalidating ends the observation and removes every registration it made")
  func invalidateRemovesDependencies() {
    let person = Person()
    let count = Counter()
    let token = person.observe(\.summary) { _, _ in count.increment() }
    #expect(allRegistrations(on: person).count == 3, "the anchor and the two dependencies")
    #expect(person.observationInfo.count == 1, "one entry for the one token")
    token.invalidate()
    #expect(!token.isActive)
    #expect(allRegistrations(on: person).isEmpty)
    person.name = "x"
    #expect(count.count == 0)
  }

  @Test("releasing the token ends the observation")
  func releasingTheToken() {
    let person = Person()
    let count = Counter()
    var token: KeyValueObservation? = person.observe(\.summary) { _, _ in count.increment() }
    person.age = 1
    token = nil
    person.age = 2
    #expect(count.count == 1)
    #expect(person.observationInfo.isEmpty)
    _ = token
  }

  @Test("a computed property that reads nothing observable gives a token that never fires")
  func nothingObservable() {
    let resident = Resident()
    let changes = Recorder<Change<Int>>()
    let token = resident.observe(\.constant, options: [.initial, .new]) { _, change in
      changes.append(Change(change))
    }
    resident.name = "x"
    #expect(changes.elements == [Change(old: nil, new: 14)])
    #expect(token.isActive)
    _ = token
  }

  @Test("a handler may invalidate its own derived observation; nothing more arrives")
  func invalidateInsideHandler() {
    let person = Person()
    let count = Counter()
    let holder = TokenHolder()
    holder.token = person.observe(\.summary, options: .prior) { _, change in
      count.increment()
      if change.isPrior { holder.token?.invalidate() }
    }
    person.age = 1
    person.age = 2
    #expect(count.count == 1, "the prior notification only")
    #expect(person.observationInfo.isEmpty)
  }

  // A computed property declared in the class is read through the getter
  // the macro's table hands out, not through its key path.

  @Test("a computed property overridden in a subclass is read through the override, observed through the base")
  func overriddenComputedProperty() {
    let meter: Length = LengthInFeet()
    let changes = Recorder<Change<Int>>()
    let token = meter.observe(\.reading, options: [.initial, .old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    meter.meters = 2
    #expect(changes.elements == [Change(old: nil, new: 0), Change(old: 0, new: 6)])
    _ = token
  }

  @Test("a computed property with a setter is observed through its getter, and its setter notifies once")
  func settableComputedProperty() {
    let meter = Length()
    let changes = Recorder<Change<Int>>()
    let token = meter.observe(\.centimeters, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    meter.centimeters = 300
    #expect(meter.meters == 3)
    #expect(changes.elements == [Change(old: 0, new: 300)])
    _ = token
  }
}

/// A computed property with a setter, and one a subclass overrides.
@KeyValueObservable
class Length {
  var meters = 0
  var reading: Int { meters }
  var centimeters: Int {
    get { meters * 100 }
    set { meters = newValue / 100 }
  }
}

@KeyValueObservable
final class LengthInFeet: Length {
  override var reading: Int { meters * 3 }
}

/// A computed property that reads one key twice.
@KeyValueObservable
private final class Square {
  var side = 0
  var label = ""
  var summary: String { "\(side * side) \(label)" }
}
