import KeyValueObserving

/// The end of a chain.
@KeyValueObservable
final class City {
  var name: String

  init(name: String) {
    self.name = name
  }
}

/// The middle of a chain.
@KeyValueObservable
final class Address {
  var street: String
  var city: City?

  init(street: String = "", city: City? = nil) {
    self.street = street
    self.city = city
  }
}

/// A class the macro does not touch, as a link of a chain.
final class Envelope {
  var address = Address(street: "inside")
}

/// Computed properties and chains through optional, non-optional and
/// non-observable links.
@KeyValueObservable
final class Resident {
  var name = ""
  var nickname = ""
  var useNickname = false
  var address: Address?
  var home = Address(street: "home")
  var envelope = Envelope()

  /// Reads `nickname` or `name`, not both: its dependencies change with
  /// `useNickname`.
  var displayName: String { useNickname ? nickname : name }

  /// A `didSet` that keeps a second property in step: one assignment changes
  /// two dependencies of `reading`.
  var celsius: Double = 0 {
    didSet { fahrenheit = celsius * 9 / 5 + 32 }
  }
  var fahrenheit: Double = 32
  var reading: String { "\(celsius)C \(fahrenheit)F" }

  /// Reads nothing observable.
  let id = 7
  var constant: Int { id * 2 }
}

/// Declared dependencies and manual notification.
@KeyValueObservable
final class Ledger {
  /// Not observable: only declarations can tie `status` to anything.
  @KeyValueIgnored var rawStatus = "open"
  var status: String { rawStatus }

  var revision = 0
  var edits = 0

  var balance = 0
  var label: String { "balance \(balance)" }

  var owner: Resident?
  @KeyValueIgnored var ownerCache = ""
  var badge: String { ownerCache }

  var left = 0
  var right = 0

  /// Notifies only through will/didChangeValue.
  var level = 0

  /// Computed keys that read only ignored storage: `tier2` declares
  /// `tier1`, which declares `tierBase`.
  @KeyValueIgnored var tierCache = 0
  var tierBase = 0
  var tier1: Int { tierCache }
  var tier2: Int { tierCache * 2 }
}

extension Ledger: KeyValueObservingCustomization {
  static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
    switch key {
    case \Ledger.status: [\Ledger.revision]  // two levels: revision depends on edits
    case \Ledger.revision: [\Ledger.edits]
    case \Ledger.label: [\Ledger.balance]  // also found by tracking `label`
    case \Ledger.badge: [\Ledger.owner?.name]  // through another object
    case \Ledger.left: [\Ledger.right]  // a cycle
    case \Ledger.right: [\Ledger.left]
    case \Ledger.tier2: [\Ledger.tier1]  // declared only, and tier1 in turn
    case \Ledger.tier1: [\Ledger.tierBase]
    default: []
    }
  }

  static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
    key != \Ledger.level
  }
}
