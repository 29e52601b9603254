import KeyValueObserving
import Testing

@Suite("Options: .new .old .initial .prior")
struct ObservingOptionsTests {
  @Test("with no options a change reports its kind and no values")
  func noOptions() {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let token = person.observe(\.age) { _, change in changes.append(change) }
    person.age = 3
    #expect(changes.elements == [KeyValueObservedChange(kind: .setting)])
    _ = token
  }

  @Test(".new and .old carry the values around the change")
  func newAndOld() {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(change) }
    person.age = 3
    person.age = 7
    #expect(
      changes.elements == [
        KeyValueObservedChange(kind: .setting, newValue: 3, oldValue: 0),
        KeyValueObservedChange(kind: .setting, newValue: 7, oldValue: 3),
      ]
    )
    _ = token
  }

  @Test("each observer gets only the values it asked for, even when another asked for more")
  func valuesPerRegistration() {
    let person = Person()
    let onlyNew = Recorder<KeyValueObservedChange<Int>>()
    let onlyOld = Recorder<KeyValueObservedChange<Int>>()
    let both = Recorder<KeyValueObservedChange<Int>>()
    let tokens = [
      person.observe(\.age, options: .new) { _, change in onlyNew.append(change) },
      person.observe(\.age, options: .old) { _, change in onlyOld.append(change) },
      person.observe(\.age, options: [.old, .new, .prior]) { _, change in both.append(change) },
    ]
    person.age = 5
    #expect(onlyNew.elements == [KeyValueObservedChange(kind: .setting, newValue: 5)])
    #expect(onlyOld.elements == [KeyValueObservedChange(kind: .setting, oldValue: 0)])
    #expect(
      both.elements == [
        KeyValueObservedChange(kind: .setting, oldValue: 0, isPrior: true),
        KeyValueObservedChange(kind: .setting, newValue: 5, oldValue: 0),
      ]
    )
    _ = tokens
  }

  @Test(".initial delivers the current value before observe returns, with no old value")
  func initial() {
    let person = Person(name: "Ada", age: 36)
    let changes = Recorder<KeyValueObservedChange<String>>()
    let token = person.observe(\.name, options: [.initial, .new, .old]) { _, change in
      changes.append(change)
    }
    #expect(changes.elements == [KeyValueObservedChange(kind: .setting, newValue: "Ada")])
    person.name = "Grace"
    #expect(changes.elements.last == KeyValueObservedChange(kind: .setting, newValue: "Grace", oldValue: "Ada"))
    _ = token
  }

  @Test(".initial without .new is a bare setting notification")
  func initialWithoutNew() {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<String>>()
    let token = person.observe(\.name, options: .initial) { _, change in changes.append(change) }
    #expect(changes.elements == [KeyValueObservedChange(kind: .setting)])
    _ = token
  }

  @Test(".prior notifies before the change, while the object still holds the old value")
  func prior() {
    let person = Person()
    let seen = Recorder<String>()
    let token = person.observe(\.age, options: [.prior, .old, .new]) { person, change in
      seen.append("\(change.isPrior ? "before" : "after") age=\(person.age) \(change)")
    }
    person.age = 1
    #expect(
      seen.elements == [
        "before age=0 setting prior old: 0",
        "after age=1 setting old: 0 new: 1",
      ]
    )
    _ = token
  }

  @Test(".prior without .old carries no value at all, and never a new value")
  func priorWithoutOld() {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let token = person.observe(\.age, options: [.prior, .new]) { _, change in changes.append(change) }
    person.age = 1
    #expect(
      changes.elements == [
        KeyValueObservedChange(kind: .setting, isPrior: true),
        KeyValueObservedChange(kind: .setting, newValue: 1),
      ]
    )
    _ = token
  }

  @Test("every assignment notifies, also of an equal value")
  func equalValues() {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.name) { _, _ in counter.increment() }
    person.name = ""
    person.name = ""
    person.name = "x"
    #expect(counter.count == 3)
    _ = token
  }

  @Test("several observers of one key are notified in registration order")
  func registrationOrder() {
    let person = Person()
    let order = Recorder<Int>()
    var tokens: [KeyValueObservation] = []
    for index in 0..<10 {
      tokens.append(person.observe(\.age) { _, _ in order.append(index) })
    }
    // Removing some in the middle must not disturb the order of the rest.
    tokens[3].invalidate()
    tokens[7].invalidate()
    tokens.append(person.observe(\.age) { _, _ in order.append(10) })
    person.age = 1
    #expect(order.elements == [0, 1, 2, 4, 5, 6, 8, 9, 10])
  }

  @Test("an optional property tells 'not requested' (nil) from 'held nil' (.some(nil))")
  func optionalValues() throws {
    let person = Person()
    let changes = Recorder<KeyValueObservedChange<String?>>()
    let token = person.observe(\.nickname, options: [.old, .new]) { _, change in changes.append(change) }
    person.nickname = "Bo"
    person.nickname = nil
    let first = try #require(changes.elements.first)
    #expect(first.oldValue == .some(nil))
    #expect(first.newValue == .some("Bo"))
    let second = try #require(changes.elements.last)
    #expect(second.oldValue == .some("Bo"))
    #expect(second.newValue == .some(nil))

    let newOnly = Recorder<KeyValueObservedChange<String?>>()
    let other = person.observe(\.nickname, options: .new) { _, change in newOnly.append(change) }
    person.nickname = nil
    #expect(newOnly.elements.first?.oldValue == nil, "old value not requested: the outer optional is nil")
    #expect(newOnly.elements.first?.newValue == .some(nil))
    _ = (token, other)
  }

  @Test("a change delivers the observed object itself")
  func deliversObject() {
    let person = Person()
    let objects = Recorder<ObjectIdentifier>()
    let token = person.observe(\.age) { observed, _ in objects.append(ObjectIdentifier(observed)) }
    person.age = 2
    #expect(objects.elements == [ObjectIdentifier(person)])
    _ = token
  }

  @Test("in-place mutation (`+=`, `append`) notifies once with old and new values")
  func inPlaceMutation() {
    let person = Person()
    let ages = Recorder<KeyValueObservedChange<Int>>()
    let tags = Recorder<KeyValueObservedChange<[String]>>()
    let tokens = [
      person.observe(\.age, options: [.old, .new]) { _, change in ages.append(change) },
      person.observe(\.tags, options: [.old, .new]) { _, change in tags.append(change) },
    ]
    person.age += 5
    person.tags.append("swift")
    #expect(ages.elements == [KeyValueObservedChange(kind: .setting, newValue: 5, oldValue: 0)])
    #expect(tags.elements == [KeyValueObservedChange(kind: .setting, newValue: ["swift"], oldValue: [])])
    _ = tokens
  }

  @Test("other keys of the object are not notified")
  func otherKeysQuiet() {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.name) { _, _ in counter.increment() }
    person.age = 1
    person.tags = ["a"]
    person.cache = 9
    #expect(counter.count == 0)
    _ = token
  }

  @Test("a change record keeps the indexes it was made with")
  func changeRecordIndexes() {
    let indexes: KeyValueIndexSet = [5..<7, 0..<2]
    let change = KeyValueObservedChange<[Int]>(kind: .insertion, newValue: [1, 2, 3, 4], indexes: indexes)
    #expect(change.indexes == indexes)
    #expect(change.kind == .insertion)
    #expect(KeyValueObservedChange<Int>(kind: .setting).indexes == nil)
    #expect(change.description == "insertion new: [1, 2, 3, 4] indexes: [0..<2, 5..<7]")
  }
}
