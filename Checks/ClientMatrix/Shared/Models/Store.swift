// The models a realistic client writes, every member shape the articles
// show. Each configuration of the matrix compiles this same file: in the
// Swift 5 and Swift 6 language modes, with nonisolated and main-actor
// default isolation, and in a module built for distribution (library
// evolution), where the checks observe it from another module. `public`,
// `open` and `package` so that the other module can reach it.
public import KeyValueObserving
public import Observation

/// Stored properties of several kinds, computed ones with written types,
/// `get throws` and `get async`, property observers, to-many collections,
/// an optional link, a `weak` back-reference, a constant and an ignored
/// property.
@KeyValueObservable
public final class Order {
  public var number = 0
  public var items: [LineItem] = []
  public var tags: Set<String> = []
  public var customer: Customer?
  public weak var store: Store?
  public var note = "" {
    willSet { noteWillSets += 1 }
    didSet { noteDidSets += 1 }
  }
  @KeyValueIgnored public var noteWillSets = 0
  @KeyValueIgnored public var noteDidSets = 0
  public let createdBy = "matrix"

  public init() {}

  /// A computed property over the items' own properties.
  public var total: Int { items.reduce(0) { $0 + $1.price * $1.quantity } }
  /// A computed property with an explicit getter.
  public var summary: String {
    get { "#\(number): \(items.count) items" }
  }
  /// Neither can be named by a key path; the class still compiles.
  public var checkedTotal: Int {
    get throws {
      guard total >= 0 else { throw OrderError.negativeTotal }
      return total
    }
  }
  public var remoteTotal: Int {
    get async { total }
  }
}

public enum OrderError: Error {
  case negativeTotal
}

@KeyValueObservable
public final class LineItem {
  public var name: String
  public var price: Int
  public var quantity = 1

  public init(_ name: String, price: Int) {
    self.name = name
    self.price = price
  }
}

@KeyValueObservable
public final class Customer {
  public var name = ""
  public var address: Address?
  /// An initial value that calls an initializer, isolated where the
  /// default isolation is the main actor: with its type written, it
  /// compiles in every configuration.
  public var billing: Address = Address(city: "Paris")

  public init(name: String) {
    self.name = name
  }
}

@KeyValueObservable
public final class Address {
  public var city = ""

  public init(city: String) {
    self.city = city
  }
}

/// The store an order belongs to.
@KeyValueObservable
public final class Store {
  public var name = ""
  public var orders: [Order] = []
  public var orderCount: Int { orders.count }

  public init() {}
}

/// A class that Swift Observation tracks too: it needs what `@Observable`
/// needs.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@KeyValueObservable
public final class Catalog: Observable {
  public var title = ""
  public var items: [LineItem] = []
  public var itemCount: Int { items.count }

  public init() {}
}

/// A base class and a subclass that adds keys, both open.
@KeyValueObservable
open class Document {
  open var title = ""
  public var wordCount: Int { title.split(separator: " ").count }

  public init() {}
}

@KeyValueObservable
open class Draft: Document {
  public var revision = 0
  public var label: String { "\(title) r\(revision)" }
}

/// A generic class.
@KeyValueObservable
public final class Slot<Value> {
  public var value: Value
  public var revision = 0 {
    didSet {}
  }

  public init(_ value: Value) {
    self.value = value
  }
}

/// A model visible to the package only.
@KeyValueObservable
package final class Ledger {
  package var balance = 0
  package var isOverdrawn: Bool { balance < 0 }

  package init() {}
}

/// A declared dependency, as Objective-C KVO's `keyPathsForValuesAffecting…`.
@KeyValueObservable
public final class Thermometer {
  public var celsius = 0.0
  @KeyValueIgnored public var unit = "C"
  public var reading: String { unit == "C" ? "\(celsius) C" : "\(celsius * 9 / 5 + 32) F" }

  public init() {}
}

extension Thermometer: KeyValueObservingCustomization {
  public static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
    key == \Thermometer.reading ? [\Thermometer.celsius] : []
  }
}

/// A model that decodes and encodes under its properties' names.
@KeyValueObservable
public final class Profile: Codable {
  public var handle = ""
  public var followers = 0

  public init() {}
}
