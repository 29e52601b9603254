@testable import KeyValueObserving
import Synchronization
import Testing

/// A crate whose label is optional: `\.label?.text` is a chain through an
/// optional link, and `\.label?.shouted` reads the same stored properties
/// through a computed one.
@KeyValueObservable
final class Crate {
  var label: TagLabel?
  weak var borrowed: TagLabel?
  var tag = TagLabel("plain")
}

/// Holds a crate optionally: `\.crate?.tag.text` has a plain link after an
/// optional one.
@KeyValueObservable
final class CrateRack {
  var crate: Crate?
}

/// Holds a crate weakly: `\.crate?.label?.text` has a `weak` first link.
@KeyValueObservable
final class CrateShelf {
  weak var crate: Crate?

  /// The same chain through a computed property.
  var labelText: String? { crate?.label?.text }
}

@KeyValueObservable
final class TagLabel {
  var text: String

  /// Reads `text`, as `\.label?.text` does, and changes it.
  var shouted: String { text.uppercased() }

  init(_ text: String) {
    self.text = text
  }
}

@Suite("Chains through optional and weak links, read link by link")
struct OptionalChainTests {
  @Test("an optional chain, a mixed one and one through a weak link are read link by link")
  func readLinkByLink() {
    let resident = Resident()
    resident.address = Address(street: "Main", city: City(name: "Oslo"))
    #expect(StoredChain(\Resident.address?.city?.name, of: resident) != nil)
    #expect(StoredChain(\Resident.address?.street, of: resident) != nil)
    #expect(StoredChain(\Resident.home.city?.name, of: resident) == nil, "a nil link hides what lies beyond it")
    resident.home.city = City(name: "Rome")
    #expect(StoredChain(\Resident.home.city?.name, of: resident) != nil)

    let crate = Crate()
    let label = TagLabel("fragile")
    crate.borrowed = label
    #expect(StoredChain(\Crate.borrowed?.text, of: crate) != nil)
    #expect(StoredChain(\Crate.borrowed?.text, of: crate)?.read(from: crate, matching: nil)?.value == .some("fragile"))
    crate.borrowed = nil
    #expect(StoredChain(\Crate.borrowed?.text, of: crate) == nil)
    _ = label
  }

  @Test("a computed property that reads the same stored properties is not taken for the chain")
  func computedPropertyOnTheWay() {
    let crate = Crate()
    crate.label = TagLabel("fragile")
    #expect(StoredChain(\Crate.label?.text, of: crate) != nil)
    #expect(StoredChain(\Crate.label?.shouted, of: crate) == nil)
    let values = Recorder<Change<String?>>()
    let token = crate.observe(\.label?.shouted, options: [.old, .new]) { _, change in
      values.append(Change(old: change.oldValue, new: change.newValue))
    }
    crate.label?.text = "glass"
    #expect(values.elements == [Change(old: "FRAGILE", new: "GLASS")])
    _ = token
  }

  @Test("a link set to nil and back notifies nil, then the new leaf, then follows it")
  func linkComesBack() {
    let resident = Resident()
    let first = Address(city: City(name: "Oslo"))
    resident.address = first
    let changes = Recorder<Change<String?>>()
    let token = resident.observe(\.address?.city?.name, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    resident.address = nil
    first.city?.name = "Detached"
    let second = Address(city: City(name: "Rome"))
    resident.address = second
    second.city?.name = "Milan"
    second.city = nil
    second.city = City(name: "Turin")
    #expect(
      changes.elements == [
        Change(old: "Oslo", new: .some(nil)),
        Change(old: .some(nil), new: "Rome"),
        Change(old: "Rome", new: "Milan"),
        Change(old: "Milan", new: .some(nil)),
        Change(old: .some(nil), new: "Turin"),
      ]
    )
    #expect(allRegistrations(on: first).isEmpty)
    #expect(allRegistrations(on: first.city!).isEmpty)
    _ = token
  }

  @Test("through a weak link, a freed object reads as nil without a notification, and the next one is followed")
  func weakLinkFreed() {
    let crate = Crate()
    var label: TagLabel? = TagLabel("first")
    crate.borrowed = label
    let changes = Recorder<Change<String?>>()
    let token = crate.observe(\.borrowed?.text, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    label?.text = "renamed"
    weak let freed = label
    label = nil
    #expect(freed == nil)
    #expect(crate.borrowed == nil)
    let next = TagLabel("next")
    crate.borrowed = next
    next.text = "again"
    #expect(
      changes.elements == [
        Change(old: "first", new: "renamed"),
        Change(old: .some(nil), new: "next"),
        Change(old: "next", new: "again"),
      ]
    )
    _ = token
  }

  @Test("a change of the chain's last key, read from its object, stops counting once a link is replaced or freed")
  func lastLinkFollowed() {
    let shelf = CrateShelf()
    var crate: Crate? = Crate()
    let label = TagLabel("a")
    crate?.label = label
    shelf.crate = crate
    let changes = Recorder<Change<String?>>()
    let token = shelf.observe(\.crate?.label?.text, options: [.old, .new]) { _, change in
      changes.append(Change(old: change.oldValue, new: change.newValue))
    }
    label.text = "b"
    label.text = "c"
    let other = TagLabel("x")
    crate?.label = other
    label.text = "unseen"
    other.text = "y"
    crate?.label = label
    label.text = "d"
    // The crate, held weakly, goes without a change; the label it held
    // lives on, out of the chain: its changes are not the chain's, which
    // reads nil at the freed link.
    crate = nil
    label.text = "e"
    label.text = "f"
    #expect(
      changes.elements == [
        Change(old: "a", new: "b"),
        Change(old: "b", new: "c"),
        Change(old: "c", new: "x"),
        Change(old: "x", new: "y"),
        Change(old: "y", new: "unseen"),
        Change(old: "unseen", new: "d"),
      ]
    )
    #expect(allRegistrations(on: label).isEmpty)
    _ = token
  }

  @Test(
    "past a freed weak link, a write to an object that lives on notifies nothing, prior included",
    arguments: [false, true]
  )
  func writeBehindFreedWeakLink(throughComputedProperty: Bool) {
    let shelf = CrateShelf()
    var crate: Crate? = Crate()
    let label = TagLabel("a")
    crate?.label = label
    shelf.crate = crate
    let notes = Recorder<String>()
    func note(_ change: KeyValueObservedChange<String?>) {
      notes.append("\(change.isPrior ? "prior " : "")\(change.oldValue.map { $0 ?? "nil" } ?? "-")→\(change.newValue.map { $0 ?? "nil" } ?? "-")")
    }
    let token =
      throughComputedProperty
      ? shelf.observe(\.labelText, options: [.old, .new, .prior]) { _, change in note(change) }
      : shelf.observe(\.crate?.label?.text, options: [.old, .new, .prior]) { _, change in note(change) }
    label.text = "b"
    crate = nil
    label.text = "c"
    label.text = "d"
    #expect(allRegistrations(on: label).isEmpty)
    // A new crate holding the same label: followed again.
    let next = Crate()
    next.label = label
    shelf.crate = next
    label.text = "e"
    #expect(notes.elements == ["prior a→-", "a→b", "prior nil→-", "nil→d", "prior d→-", "d→e"])
    _ = token
  }

  @Test("replacing the middle link of an optional chain re-wires it and leaves the old links")
  func replacedMiddle() {
    let resident = Resident()
    let old = Address(city: City(name: "Oslo"))
    resident.address = old
    let values = Recorder<String?>()
    let token = resident.observe(\.address?.city?.name, options: .new) { _, change in values.append(change.newValue!) }
    for index in 0..<10 {
      resident.address = Address(city: City(name: "\(index)"))
    }
    old.city?.name = "unseen"
    resident.address?.city?.name = "last"
    #expect(values.elements == (0..<10).map { "\($0)" } + ["last"])
    #expect(allRegistrations(on: old).isEmpty)
    _ = token
  }

  @Test("each stored property's line names its key path rooted at an optional of its class")
  func optionallyRootedKeyPaths() {
    #expect(Crate.optionallyRootedKeyPath(forSlot: 0) == \Crate?.?.label)
    #expect(Crate.optionallyRootedKeyPath(forSlot: 1) == \Crate?.?.borrowed)
    #expect(TagLabel.optionallyRootedKeyPath(forSlot: 0) == \TagLabel?.?.text)
    // A property with observers of its own, whose line matches three patterns.
    #expect(Resident.optionallyRootedKeyPath(forSlot: 6) == \Resident?.?.celsius)
  }

  @Test("a plain link after an optional one is observed through the key path, with the same values")
  func plainLinkAfterAnOptionalOne() {
    let crate = Crate()
    crate.label = TagLabel("fragile")
    let rack = CrateRack()
    rack.crate = crate
    #expect(StoredChain(\CrateRack.crate?.tag.text, of: rack) == nil)
    let values = Recorder<Change<String?>>()
    let token = rack.observe(\.crate?.tag.text, options: [.old, .new]) { _, change in
      values.append(Change(old: change.oldValue, new: change.newValue))
    }
    crate.tag.text = "glass"
    rack.crate = nil
    #expect(values.elements == [Change(old: "plain", new: "glass"), Change(old: "glass", new: .some(nil))])
    _ = token
  }

  @Test("a chain observed while a link is nil is read link by link once the link is set")
  func foundWhenTheLinkIsSet() {
    let resident = Resident()
    let values = Recorder<String?>()
    let token = resident.observe(\.address?.city?.name, options: .new) { _, change in values.append(change.newValue!) }
    #expect(!readsLinkByLink(resident, String?.self))
    let address = Address()
    resident.address = address
    #expect(!readsLinkByLink(resident, String?.self), "the city is still nil: the chain is not known past it")
    address.city = City(name: "Lima")
    #expect(readsLinkByLink(resident, String?.self))
    address.city?.name = "Cusco"
    resident.address = nil
    #expect(values.elements == [nil, "Lima", "Cusco", nil])
    _ = token
  }

  /// Whether a derived observation of `root` whose value is a `Value`
  /// reads its key path link by link.
  private func readsLinkByLink<Root: KeyValueObservable, Value>(_ root: Root, _: Value.Type) -> Bool {
    guard let storage = root._$kvoObservedStorage?.takeUnretainedValue() else { return false }
    return storage.liveRegistrations().contains { registration in
      guard let observation = registration as? DerivedObservation<Root, Value> else { return false }
      return observation.foundChain.load(ordering: .acquiring) != 0
    }
  }
}
