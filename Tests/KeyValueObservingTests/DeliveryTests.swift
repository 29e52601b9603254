import KeyValueObserving
import Testing

@Suite("Delivery: callbacks may observe, invalidate and assign")
struct DeliveryTests {
  @Test("observing keys in turn on one object reaches each key, whatever key path was observed before")
  func alternatingKeyPaths() {
    let person = Person()
    var seen: [String] = []
    let keyPaths: [(KeyPath<Person, Int>, String)] = [(\.age, "age"), (\.age, "age")]
    var tokens = keyPaths.map { keyPath, label in person.observe(keyPath) { _, _ in seen.append(label) } }
    tokens.append(person.observe(\.name) { _, _ in seen.append("name") })
    tokens.append(person.observe(\.summary) { _, _ in seen.append("summary") })
    tokens.append(person.observe(\.age) { _, _ in seen.append("age again") })
    // A key path built at run time, not a literal, names the same key.
    let built = (\Person.self).appending(path: \Person.name)
    tokens.append(person.observe(built) { _, _ in seen.append("built name") })
    person.age = 1
    #expect(seen == ["age", "age", "summary", "age again"])
    seen = []
    person.name = "Ada"
    #expect(seen == ["name", "summary", "built name"])
    withExtendedLifetime(tokens) {}
  }

  @Test("a registration invalidated by an earlier observer of the same change is not called")
  func invalidatedDuringDelivery() {
    let person = Person()
    let calls = Recorder<String>()
    let later = TokenHolder()
    let first = person.observe(\.age) { _, _ in
      calls.append("first")
      later.token?.invalidate()
    }
    later.token = person.observe(\.age) { _, _ in calls.append("second") }
    person.age = 1
    person.age = 2
    #expect(calls.elements == ["first", "first"])
    _ = first
  }

  @Test("a registration added during delivery waits for the next change")
  func addedDuringDelivery() {
    let person = Person()
    let calls = Recorder<String>()
    let added = TokenHolder()
    let first = person.observe(\.age) { person, _ in
      calls.append("first")
      if added.token == nil {
        added.token = person.observe(\.age) { _, _ in calls.append("added") }
      }
    }
    person.age = 1
    #expect(calls.elements == ["first"])
    person.age = 2
    #expect(calls.elements == ["first", "first", "added"])
    _ = first
  }

  @Test("a callback may assign the same key: the new change is notified after the current one")
  func assignSameKeyInCallback() {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { person, change in
      changes.append(change)
      if change.newValue == 1 { person.age = 2 }
    }
    person.age = 1
    #expect(
      changes.elements == [
        KeyValueObservedChange(kind: .setting, newValue: 1, oldValue: 0),
        KeyValueObservedChange(kind: .setting, newValue: 2, oldValue: 1),
      ]
    )
    _ = token
  }

  @Test("a callback may assign other keys and other objects")
  func assignOtherKeysInCallback() {
    let person = Person()
    let other = Person()
    let seen = Recorder<String>()
    let tokens = [
      person.observe(\.age) { person, _ in
        person.name = "changed"
        other.age = 99
      },
      person.observe(\.name, options: .new) { _, change in seen.append("name \(change.newValue!)") },
      other.observe(\.age, options: .new) { _, change in seen.append("other \(change.newValue!)") },
    ]
    person.age = 1
    #expect(seen.elements == ["name changed", "other 99"])
    _ = tokens
  }

  @Test("an assignment from a prior callback folds into the outer change")
  func nestedChangeInPrior() {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let token = person.observe(\.age, options: [.prior, .old, .new]) { person, change in
      changes.append(change)
      if change.isPrior && change.oldValue == 0 { person.age = 50 }
    }
    person.age = 1
    #expect(
      changes.elements == [
        KeyValueObservedChange(kind: .setting, oldValue: 0, isPrior: true),
        KeyValueObservedChange(kind: .setting, newValue: 1, oldValue: 0),
      ]
    )
    _ = token
  }

  @Test(
    "an assignment from a prior callback that ended the key's prior observers still folds, whatever is open elsewhere",
    arguments: ChangesOpenElsewhere.allCases
  )
  func nestedChangeAfterPriorObserversEnded(elsewhere: ChangesOpenElsewhere) {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let observer = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(change) }
    let holder = TokenHolder()
    holder.token = person.observe(\.age, options: .prior) { person, change in
      guard change.isPrior else { return }
      // The key's only prior observer ends, then the key changes again:
      // the outer change is still under way on this thread.
      holder.token?.invalidate()
      person.age = 50
    }
    elsewhere.whileOpen { person.age = 1 }
    #expect(changes.elements == [KeyValueObservedChange(kind: .setting, newValue: 1, oldValue: 0)])
    _ = observer
  }

  @Test("a callback may observe the object it is told about")
  func observeInsideCallback() {
    let person = Person()
    let inner = Recorder<KeyValueObservedChange<String>>()
    let holder = TokenHolder()
    let token = person.observe(\.age) { person, _ in
      holder.token = person.observe(\.name, options: [.initial, .new]) { _, change in inner.append(change) }
    }
    person.age = 1
    #expect(inner.elements == [KeyValueObservedChange(kind: .setting, newValue: "")])
    person.name = "x"
    #expect(inner.elements.count == 2)
    _ = token
  }

  @Test("an .initial callback may invalidate every registration, its own included")
  func invalidateAllInsideInitial() {
    let person = Person()
    let counter = Counter()
    let holder = TokenHolder()
    holder.token = person.observe(\.age) { _, _ in counter.increment() }
    let token = person.observe(\.age, options: .initial) { _, _ in
      holder.token?.invalidate()
    }
    person.age = 1
    #expect(counter.count == 0)
    _ = token
  }

  @Test("a registration invalidated during a delivery releases its closure when that delivery ends")
  func releasedAfterDelivery() {
    let person = Person()
    let holder = TokenHolder()
    weak var captured: Marker?
    do {
      let marker = Marker()
      captured = marker
      holder.token = person.observe(\.age) { _, _ in _ = marker }
    }
    let remover = person.observe(\.age) { _, _ in
      holder.token?.invalidate()
      #expect(captured != nil, "still held by the list this delivery reads")
    }
    person.age = 1
    #expect(captured == nil)
    #expect(person.observationInfo.count == 1)
    _ = remover
  }

  @Test("registrations added during a delivery, many of them, all count from the next change")
  func manyAddedDuringDelivery() {
    let person = Person()
    let count = Counter()
    let added = TokenBox()
    let first = person.observe(\.age) { person, _ in
      if added.tokens.isEmpty {
        added.tokens = (0..<100).map { _ in person.observe(\.age) { _, _ in count.increment() } }
        added.tokens.removeFirst(50)
      }
    }
    person.age = 1
    #expect(count.count == 0)
    person.age = 2
    #expect(count.count == 50)
    _ = first
  }

  @Test("changes nested deeper than the registrar's delivery flags all deliver, and removal inside them is safe")
  func deeplyNestedChanges() {
    let person = Person()
    let values = Recorder<Int>()
    let extra = TokenHolder()
    extra.token = person.observe(\.age) { _, _ in }
    let token = person.observe(\.age, options: .new) { person, change in
      let value = change.newValue!
      values.append(value)
      if value == 1 { extra.token?.invalidate() }
      if value > 0 { person.age = value - 1 }
    }
    person.age = 20
    #expect(values.elements == Array((0...20).reversed()))
    #expect(person.observationInfo.count == 1)
    person.age = 0
    #expect(values.count == 22)
    _ = token
  }
}
