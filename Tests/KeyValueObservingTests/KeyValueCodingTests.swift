import KeyValueObserving
import Testing

@Suite("Key-value coding: value(forKey:) and setValue(_:forKey:), driven by the key table")
struct KeyValueCodingTests {
  @Test("reads stored, optional, computed, constant, lazy and ignored properties by name")
  func reads() throws {
    let person = Person(name: "Ada", age: 36)
    #expect(try person.value(forKey: "name") as? String == "Ada")
    #expect(try person.value(forKey: "age") as? Int == 36)
    #expect(try person.value(forKey: "nickname") == nil, "an optional holding nil reads as nil")
    person.nickname = "Countess"
    #expect(try person.value(forKey: "nickname") as? String == "Countess", "and one holding a value as the value")
    #expect(try person.value(forKey: "summary") as? String == "Ada, 36")
    #expect(try person.value(forKey: "id") as? Int == 1)
    #expect(try person.value(forKey: "greeting") as? String == "Hello, Ada")
    #expect(try person.value(forKey: "cache") as? Int == 0)
  }

  @Test("reads inherited keys of a subclass and keys of a generic class")
  func readsThroughClassKinds() throws {
    let truck = TowTruck()
    truck.towing = "car"
    #expect(try truck.value(forKey: "wheels") as? Int == 4)
    #expect(try truck.value(forKey: "towing") as? String == "car")
    #expect(try Box(5).value(forKey: "content") as? Int == 5)
  }

  @Test("an empty or unknown key throws, naming the key and the type")
  func badKeys() {
    let person = Person()
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Person")) { try person.value(forKey: "") }
    #expect(throws: KeyValueCodingError.unknownKey(key: "nmae", type: "Person")) { try person.value(forKey: "nmae") }
    #expect(throws: KeyValueCodingError.unknownKey(key: "population", type: "Person"), "static properties are not keys") {
      try person.value(forKey: "population")
    }
  }

  @Test("setValue goes through the setter: observers are notified exactly once")
  func setNotifiesOnce() throws {
    let person = Person()
    let changes = Recorder<Change<Int>>()
    let token = person.observe(\.age, options: [.old, .new]) { _, change in changes.append(Change(change)) }
    try person.setValue(37, forKey: "age")
    #expect(person.age == 37)
    #expect(changes.elements == [Change(old: 0, new: 37)])
    _ = token
  }

  @Test("setValue runs the property's own observers and a subclass's override, as an assignment does")
  func setRunsObserversAndOverrides() throws {
    let shelf = Shelf()
    let marked = AuditedShelf()
    let unmarked = UnmarkedAuditedShelf()
    let notified = Counter()
    let tokens = [shelf, marked, unmarked].map { object in
      object.observe(\.items) { _, _ in notified.increment() }
    }
    try shelf.setValue([1], forKey: "counted")
    #expect(shelf.counted == [1] && shelf.itemsDidSet == 1)
    for object in [marked, unmarked, shelf] {
      try object.setValue([2], forKey: "items")
      #expect(object.items == [2])
    }
    #expect(marked.overrideDidSet == 1)
    #expect(unmarked.overrideDidSet == 1)
    #expect(notified.count == 3)
    // An inherited key of a marked subclass is set through the superclass's
    // storage, and notifies once.
    let plain = PlainSubShelf()
    let titles = Recorder<Change<String>>()
    let titleToken = plain.observe(\.title, options: [.old, .new]) { _, change in titles.append(Change(change)) }
    try plain.setValue("Poems", forKey: "title")
    try plain.setValue("Essays", forKey: "title")
    #expect(titles.elements == [Change(old: "", new: "Poems"), Change(old: "Poems", new: "Essays")])
    withExtendedLifetime((tokens, titleToken)) {}
  }

  @Test("a value of the wrong type throws and changes nothing")
  func typeMismatch() {
    let person = Person(name: "Ada", age: 36)
    let count = Counter()
    let token = person.observe(\.age) { _, _ in count.increment() }
    #expect(
      throws: KeyValueCodingError.typeMismatch(key: "age", type: "Person", expected: "Int", actual: "String")
    ) { try person.setValue("37", forKey: "age") }
    #expect(
      throws: KeyValueCodingError.typeMismatch(key: "age", type: "Person", expected: "Int", actual: "nil")
    ) { try person.setValue(nil, forKey: "age") }
    #expect(person.age == 36)
    #expect(count.count == 0)
    _ = token
  }

  @Test("nil sets an optional property to nil; a value sets it to the value")
  func optionals() throws {
    let person = Person()
    try person.setValue("Countess", forKey: "nickname")
    #expect(person.nickname == "Countess")
    try person.setValue(nil, forKey: "nickname")
    #expect(person.nickname == nil)
  }

  @Test("a value too large for an Any's inline buffer, optional or not, is set whole; so is an object")
  func boxedValues() throws {
    let sheet = MeasuredSheet()
    let margins = Margins(top: 1, left: 2, bottom: 3, right: 4, gutter: 5)
    let changes = Recorder<Margins?>()
    let token = sheet.observe(\.margins, options: .new) { _, change in changes.append(change.newValue) }
    try sheet.setValue(margins, forKey: "margins")
    try sheet.setValue(margins, forKey: "lastMargins")
    #expect(sheet.margins == margins && sheet.lastMargins == margins)
    try sheet.setValue(nil, forKey: "lastMargins")
    #expect(sheet.lastMargins == nil)
    let owner = Person(name: "Ada", age: 36)
    try sheet.setValue(owner, forKey: "owner")
    #expect(sheet.owner === owner)
    #expect(changes.elements == [margins])
    #expect(
      throws: KeyValueCodingError.typeMismatch(key: "margins", type: "MeasuredSheet", expected: "Margins", actual: "Int")
    ) { try sheet.setValue(5, forKey: "margins") }
    _ = token
  }

  @Test("constants and computed properties without a setter are read-only")
  func readOnly() {
    let person = Person()
    #expect(throws: KeyValueCodingError.readOnly(key: "id", type: "Person")) { try person.setValue(2, forKey: "id") }
    #expect(throws: KeyValueCodingError.readOnly(key: "summary", type: "Person")) {
      try person.setValue("x", forKey: "summary")
    }
  }

  @Test("an ignored property can be set by name, and notifies nobody")
  func ignoredProperty() throws {
    let person = Person()
    try person.setValue(9, forKey: "cache")
    #expect(person.cache == 9)
  }

  @Test("key paths walk through observable objects")
  func keyPaths() throws {
    let resident = Resident()
    resident.address = Address(street: "Main", city: City(name: "Oslo"))
    #expect(try resident.value(forKeyPath: "address.city.name") as? String == "Oslo")
    #expect(try resident.value(forKeyPath: "name") as? String == "")

    let changes = Recorder<Change<String?>>()
    let token = resident.observe(\.address?.city?.name, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    try resident.setValue("Bergen", forKeyPath: "address.city.name")
    #expect(resident.address?.city?.name == "Bergen")
    #expect(changes.elements == [Change(old: "Oslo", new: "Bergen")], "the chain's observer hears it once")
    _ = token
  }

  @Test("a key path with an empty component, a nil link or a link that is not observable throws")
  func badKeyPaths() {
    let resident = Resident()
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "address..city", type: "Resident")) {
      try resident.value(forKeyPath: "address..city")
    }
    #expect(throws: KeyValueCodingError.emptyKey(keyPath: "", type: "Resident")) {
      try resident.value(forKeyPath: "")
    }
    #expect(throws: KeyValueCodingError.nilIntermediate(keyPath: "address.street", key: "address", type: "Resident")) {
      try resident.setValue("x", forKeyPath: "address.street")
    }
    #expect(throws: KeyValueCodingError.notAnObservableObject(keyPath: "envelope.address", key: "envelope", type: "Resident")) {
      try resident.value(forKeyPath: "envelope.address")
    }
    #expect(throws: KeyValueCodingError.notAnObservableObject(keyPath: "name.count", key: "name", type: "Resident")) {
      try resident.value(forKeyPath: "name.count")
    }
    resident.address = Address()
    #expect(throws: KeyValueCodingError.unknownKey(key: "town", type: "Address")) {
      try resident.value(forKeyPath: "address.town")
    }
  }

  @Test("errors read as sentences")
  func descriptions() {
    #expect(
      "\(KeyValueCodingError.typeMismatch(key: "age", type: "Person", expected: "Int", actual: "String"))"
        == "Person.age holds Int; a value of type String cannot be set"
    )
    #expect("\(KeyValueCodingError.readOnly(key: "id", type: "Person"))" == "Person.id is read-only")
    #expect(
      "\(KeyValueCodingError.emptyKey(keyPath: "a..b", type: "Person"))"
        == "empty component in key path \"a..b\" for Person"
    )
    #expect(
      "\(KeyValueCodingError.notAnObservableObject(keyPath: "name.count", key: "name", type: "Person"))"
        == "Person.name does not hold a @KeyValueObservable object, so key path \"name.count\" cannot go on"
    )
    #expect(
      "\(KeyValueCodingError.neverNotifies(keyPath: "cache", key: "cache", type: "Person"))"
        == "Person.cache cannot be observed: no assignment notifies it (it is @KeyValueIgnored, lazy or property-wrapped)"
    )
    #expect(
      "\(KeyValueCodingError.neverNotifies(keyPath: "ignoredLink.calibration", key: "ignoredLink", type: "Meter"))"
        == "Meter.ignoredLink cannot be observed: no assignment notifies it (it is @KeyValueIgnored, lazy or "
        + "property-wrapped), so key path \"ignoredLink.calibration\" would never fire"
    )
  }

  @Test("works on a @MainActor class")
  @MainActor
  func mainActorClass() throws {
    let model = MainActorModel()
    try model.setValue("hi", forKey: "title")
    #expect(try model.value(forKey: "shout") as? String == "HI")
    // The generated member of an isolated class throws typed, as the
    // protocol's form does.
    do throws(KeyValueCodingError) {
      try model.withChange(forKey: "title") { () throws(KeyValueCodingError) in try model.setValue(7, forKey: "title") }
      Issue.record("a value of the wrong type throws")
    } catch {
      #expect(error == .typeMismatch(key: "title", type: "MainActorModel", expected: "String", actual: "Int"))
    }
    #expect(try model.value(forKey: "title") as? String == "hi")
  }
}

/// Properties with every access level key-value coding must respect.
@KeyValueObservable
final class Vault {
  private(set) var balance = 10
  fileprivate(set) var owner = "Ada"
  private var secret = "s3cr3t"
  fileprivate var pin = 1234
  private var hidden: Int { secret.count }
  private(set) lazy var audit = "none"
  var open = true

  func rotate() {
    secret += "!"
    pin += 1
  }
}

@Suite("Key-value coding respects access control")
struct AccessControlTests {
  @Test("a private(set) or fileprivate(set) property is readable but read-only by string; in code it is set as usual")
  func privateSetters() throws {
    let vault = Vault()
    #expect(try vault.value(forKey: "balance") as? Int == 10)
    #expect(throws: KeyValueCodingError.readOnly(key: "balance", type: "Vault")) { try vault.setValue(0, forKey: "balance") }
    #expect(throws: KeyValueCodingError.readOnly(key: "owner", type: "Vault")) { try vault.setValue("Eve", forKey: "owner") }
    #expect(throws: KeyValueCodingError.readOnly(key: "audit", type: "Vault")) { try vault.setValue("x", forKey: "audit") }
    #expect(vault.balance == 10 && vault.owner == "Ada")
    try vault.setValue(false, forKey: "open")
    #expect(!vault.open)
    let log = ChangeLog()
    try vault.addObserver(log, forKeyPath: "balance", options: .new)
    #expect(vault.observationInfo.count == 1, "read-only keys can still be observed")
  }

  @Test("a private or fileprivate property cannot be read, written or observed by string")
  func privateProperties() {
    let vault = Vault()
    let log = ChangeLog()
    for key in ["secret", "pin", "hidden"] {
      #expect(throws: KeyValueCodingError.unknownKey(key: key, type: "Vault")) { try vault.value(forKey: key) }
      #expect(throws: KeyValueCodingError.unknownKey(key: key, type: "Vault")) { try vault.setValue(nil, forKey: key) }
      #expect(throws: KeyValueCodingError.unknownKey(key: key, type: "Vault")) { try vault.addObserver(log, forKeyPath: key) }
    }
    #expect(throws: KeyValueCodingError.unknownKey(key: "secret", type: "Vault")) { try vault.willChangeValue(forKey: "secret") }
    vault.rotate()
    #expect(log.count == 0)
  }
}

/// A value larger than the three words an `Any` holds inline: boxed.
private struct Margins: Equatable {
  var top = 0, left = 0, bottom = 0, right = 0, gutter = 0
}

@KeyValueObservable
private final class MeasuredSheet {
  var margins = Margins()
  var lastMargins: Margins?
  var owner: Person?
}
