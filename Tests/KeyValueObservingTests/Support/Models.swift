import KeyValueObserving

/// The everyday model: stored properties of several kinds, plus members the
/// macro must leave alone.
@KeyValueObservable
final class Person {
  var name = ""
  var age: Int = 0
  var nickname: String?
  var tags: [String] = []
  @KeyValueIgnored var cache = 0
  let id = 1
  var summary: String { "\(name), \(age)" }
  @MainActor static var population = 0
  lazy var greeting = "Hello, \(name)"

  init() {}

  init(name: String, age: Int) {
    self.name = name
    self.age = age
  }
}

/// Properties with their own `willSet`/`didSet`, counting each call.
@KeyValueObservable
final class Thermostat {
  var willSetCalls: [Int] = []
  var didSetCalls: [Int] = []

  var target: Int = 20 {
    willSet { willSetCalls.append(newValue) }
    didSet { didSetCalls.append(oldValue) }
  }

  /// Clamps itself, the way a `didSet` often does.
  var level: Int = 0 {
    didSet { if level < 0 { level = 0 } }
  }
}

/// A non-final observable base class and a marked subclass that adds keys.
@KeyValueObservable
class Vehicle {
  var wheels = 4
  var name = "vehicle"
}

@KeyValueObservable
class Truck: Vehicle {
  var payload = 0.0
}

/// A subclass of a subclass: keys keep counting up.
@KeyValueObservable
final class TowTruck: Truck {
  var towing: String? = nil
}

/// A generic observable class without initial values.
@KeyValueObservable
final class Box<Content> {
  var content: Content
  var revision = 0

  init(_ content: Content) {
    self.content = content
  }
}

/// Reference that lets a test see whether a value is still alive.
final class Marker {}

/// A value whose old copy is alive exactly while something holds it.
struct Payload {
  let marker: Marker
}

@KeyValueObservable
final class Parcel {
  var payload = Payload(marker: Marker())
}

@MainActor
@KeyValueObservable
final class MainActorModel {
  var title = ""
  var shout: String { title.uppercased() }
}

/// A to-many `Set` property, with a computed key that depends on it.
@KeyValueObservable
final class Team {
  var memberIDs: Set<Int> = []
  var headcount: Int { memberIDs.count }
}

/// Collections and a string, with a property that has its own observer:
/// for in-place changes and assignments by string.
@KeyValueObservable
class Shelf {
  var items: [Int] = []
  var ids: Set<Int> = []
  var title = ""
  var itemsDidSet = 0
  var counted: [Int] = [] {
    didSet { itemsDidSet += 1 }
  }
}

/// A subclass the macro marked, overriding one property with its own
/// observer.
@KeyValueObservable
final class AuditedShelf: Shelf {
  var overrideDidSet = 0
  override var items: [Int] {
    didSet { overrideDidSet += 1 }
  }
}

/// A subclass the macro did not mark, overriding the same property.
final class UnmarkedAuditedShelf: Shelf {
  var overrideDidSet = 0
  override var items: [Int] {
    didSet { overrideDidSet += 1 }
  }
}

/// A subclass the macro marked, overriding nothing.
@KeyValueObservable
final class PlainSubShelf: Shelf {
  var label = ""
}
