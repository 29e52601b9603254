import KeyValueObserving
import Testing

@Suite("Key-path chains through observable objects")
struct ChainTests {
  @Test("a change of the leaf notifies with the leaf's old and new values")
  func leafChange() {
    let resident = Resident()
    resident.address = Address(street: "Main", city: City(name: "Oslo"))
    let changes = Recorder<Change<String?>>()
    let token = resident.observe(\.address?.city?.name, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    resident.address?.city?.name = "Bergen"
    #expect(changes.elements == [Change(old: "Oslo", new: "Bergen")])
    _ = token
  }

  @Test("replacing a link notifies, and the detached link is no longer observed")
  func replacingALink() {
    let resident = Resident()
    let oldAddress = Address(street: "Main", city: City(name: "Oslo"))
    resident.address = oldAddress
    let changes = Recorder<Change<String?>>()
    let token = resident.observe(\.address?.city?.name, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    let newAddress = Address(street: "High", city: City(name: "Rome"))
    resident.address = newAddress
    #expect(changes.elements == [Change(old: "Oslo", new: "Rome")])

    oldAddress.city?.name = "Detached"
    oldAddress.city = City(name: "Also detached")
    #expect(changes.count == 1)
    #expect(oldAddress.observationInfo.isEmpty)

    newAddress.city = City(name: "Milan")
    newAddress.city?.name = "Turin"
    #expect(
      changes.elements.suffix(2) == [
        Change(old: "Rome", new: "Milan"),
        Change(old: "Milan", new: "Turin"),
      ]
    )
    _ = token
  }

  @Test("setting a link to nil notifies with a nil new value")
  func linkSetToNil() {
    let resident = Resident()
    resident.address = Address(city: City(name: "Oslo"))
    let changes = Recorder<Change<String?>>()
    let token = resident.observe(\.address?.city?.name, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    resident.address?.city = nil
    resident.address = nil
    #expect(
      changes.elements == [
        Change(old: "Oslo", new: .some(nil)),
        Change(old: .some(nil), new: .some(nil)),
      ]
    )
    _ = token
  }

  @Test("a chain registered while a link is nil is wired when the link is set")
  func wiredLater() {
    let resident = Resident()
    let values = Recorder<String?>()
    let token = resident.observe(\.address?.city?.name, options: .new) { _, change in values.append(change.newValue!) }
    let address = Address()
    resident.address = address
    address.city = City(name: "Lima")
    address.city?.name = "Cusco"
    #expect(values.elements == [nil, "Lima", "Cusco"])
    _ = token
  }

  @Test("rebuilding the chain many times leaves one registration per link and one notification per change")
  func noDuplicateRegistrations() {
    let resident = Resident()
    let count = Counter()
    let token = resident.observe(\.address?.city?.name) { _, _ in count.increment() }
    var addresses: [Address] = []
    for index in 0..<100 {
      let address = Address(city: City(name: "\(index)"))
      addresses.append(address)
      resident.address = address
    }
    #expect(count.count == 100)
    let current = resident.address!
    #expect(allRegistrations(on: current).count == 1, "one registration on the current address")
    #expect(allRegistrations(on: current.city!).count == 1, "one registration on the current city")
    #expect(addresses.dropLast().allSatisfy { $0.observationInfo.isEmpty && $0.city!.observationInfo.isEmpty })
    current.city?.name = "last"
    #expect(count.count == 101)
    _ = token
  }

  @Test("observing a link and a path through it gives each its own values")
  func linkAndPathSeparately() {
    let resident = Resident()
    let first = Address(street: "First")
    resident.address = first
    let links = Recorder<Change<String?>>()
    let streets = Recorder<Change<String?>>()
    let linkToken = resident.observe(\.address, options: [.old, .new]) { _, change in
      links.append(Change(old: change.oldValue??.street, new: change.newValue??.street))
    }
    let streetToken = resident.observe(\.address?.street, options: [.old, .new]) { _, change in
      streets.append(Change(old: change.oldValue, new: change.newValue))
    }
    resident.address = Address(street: "Second")
    resident.address?.street = "Third"
    #expect(links.elements == [Change(old: "First", new: "Second")])
    #expect(
      streets.elements == [
        Change(old: "First", new: "Second"),
        Change(old: "Second", new: "Third"),
      ]
    )
    _ = (linkToken, streetToken)
  }

  @Test("a non-optional link works the same way")
  func nonOptionalLink() {
    let resident = Resident()
    let values = Recorder<String>()
    let token = resident.observe(\.home.street, options: .new) { _, change in values.append(change.newValue!) }
    resident.home.street = "Elm"
    resident.home = Address(street: "Oak")
    #expect(values.elements == ["Elm", "Oak"])
    _ = token
  }

  @Test("through a class that is not observable, the observable links still notify")
  func throughAPlainClass() {
    let resident = Resident()
    let values = Recorder<String>()
    let token = resident.observe(\.envelope.address.street, options: .new) { _, change in
      values.append(change.newValue!)
    }
    resident.envelope.address.street = "seen"
    #expect(values.elements == ["seen"])
    // Replacing the address inside the plain envelope cannot be seen; the
    // envelope itself is an observable property of the resident.
    resident.envelope.address = Address(street: "unseen")
    resident.envelope = Envelope()
    #expect(values.elements == ["seen", "inside"])
    _ = token
  }

  @Test(".prior on a chain delivers the old leaf value before the link is replaced")
  func priorOnAChain() {
    let resident = Resident()
    resident.address = Address(street: "Before")
    let seen = Recorder<String>()
    let token = resident.observe(\.address?.street, options: [.prior, .old, .new]) { resident, change in
      if change.isPrior {
        seen.append("prior \(change.oldValue!!) current \(resident.address!.street)")
      } else {
        seen.append("after \(change.oldValue!!) → \(change.newValue!!)")
      }
    }
    resident.address = Address(street: "After")
    #expect(seen.elements == ["prior Before current Before", "after Before → After"])
    _ = token
  }

  @Test("when the observed object is freed, its registrations on the other links go too")
  func rootFreed() {
    let address = Address(city: City(name: "Oslo"))
    var resident: Resident? = Resident()
    resident!.address = address
    let token = resident!.observe(\.address?.city?.name) { _, _ in }
    #expect(allRegistrations(on: address).count == 1)
    resident = nil
    #expect(!token.isActive)
    #expect(allRegistrations(on: address).isEmpty)
    #expect(allRegistrations(on: address.city!).isEmpty)
    address.city?.name = "Bergen"  // nothing to notify, nothing breaks
  }

  // A chain of non-optional stored properties is read link by link through
  // each property's storage; these pin what that read must still respect.

  @Test("a chain of stored properties follows a link replaced by a subclass that overrides the leaf")
  func storedChainThroughAnOverride() {
    let console = Console()
    let changes = Recorder<Change<Int>>()
    let token = console.observe(\.holder.dial.level, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    console.holder.dial.level = 5
    // OffsetDial's getter adds 100 to the stored level: reading the stored
    // level directly would report 0 and 50.
    let offset = OffsetDial()
    console.holder.dial = offset
    offset.level = 150
    #expect(
      changes.elements == [
        Change(old: 0, new: 5),
        Change(old: 5, new: 100),
        Change(old: 100, new: 150),
      ]
    )
    _ = token
  }

  @Test("a chain of stored properties re-wires when a middle link is replaced, and leaves the old links")
  func storedChainReplacedMiddle() {
    let console = Console()
    let oldHolder = console.holder
    let oldDial = oldHolder.dial
    let changes = Recorder<Change<Int>>()
    let token = console.observe(\.holder.dial.level, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    let newHolder = DialHolder()
    newHolder.dial.level = 7
    console.holder = newHolder
    oldDial.level = 99
    oldHolder.dial = Dial()
    newHolder.dial.level = 8
    #expect(changes.elements == [Change(old: 0, new: 7), Change(old: 7, new: 8)])
    #expect(allRegistrations(on: oldHolder).isEmpty)
    #expect(allRegistrations(on: oldDial).isEmpty)
    _ = token
  }

  @Test("a chain of stored properties ending in a property with its own observers reads what they leave")
  func storedChainToAPropertyWithObservers() {
    let console = Console()
    let values = Recorder<Int>()
    let token = console.observe(\.holder.gauge.reading, options: .new) { _, change in values.append(change.newValue!) }
    console.holder.gauge.reading = 12
    console.holder.gauge.reading = -3
    #expect(values.elements == [12, 0])
    _ = token
  }
}

/// A three-link chain of non-optional stored properties:
/// `\.holder.dial.level`, `\.holder.gauge.reading`.
@KeyValueObservable
final class Console {
  var holder = DialHolder()
}

@KeyValueObservable
final class DialHolder {
  var dial = Dial()
  var gauge = ClampedGauge()
}

/// A property whose own `didSet` adjusts the value it was given.
@KeyValueObservable
final class ClampedGauge {
  var reading = 0 {
    didSet { if reading < 0 { reading = 0 } }
  }
}
