// Models as an app target writes them. This module's default isolation is
// the main actor, so every class here is isolated to it without saying so,
// which the macro cannot see: each shape below is one the expansion must
// compile for there.
import KeyValueObserving
import Observation

/// Stored properties of several kinds, computed ones with and without
/// effects, property observers, a `weak` link and an ignored property.
@KeyValueObservable
final class Invoice {
  var title = ""
  var quantity = 0
  var unitPrice = 0
  var lines: [String] = []
  weak var parent: Invoice?
  var status = "draft" {
    didSet { statusChanges += 1 }
  }
  @KeyValueIgnored var statusChanges = 0
  let number = 7

  /// A computed property with a written type: its getter is isolated here.
  var total: Int { quantity * unitPrice }
  /// Neither of these can be named by a key path; the class still compiles.
  var checkedTotal: Int {
    get throws {
      guard quantity >= 0 else { throw InvoiceError.negativeQuantity }
      return total
    }
  }
  var remoteTotal: Int {
    get async { total }
  }
}

enum InvoiceError: Error {
  case negativeQuantity
}

/// A class that Swift Observation tracks too, with a property that has
/// observers of its own.
@KeyValueObservable
final class Sheet: Observable {
  var title = ""
  var count = 0 {
    willSet { willSetCalls += 1 }
  }
  @KeyValueIgnored var willSetCalls = 0
  var summary: String { "\(title): \(count)" }
}

/// A generic class, observable and tracked.
@KeyValueObservable
final class Slot<Value>: Observable {
  var value: Value
  var revision = 0 {
    didSet {}
  }

  init(_ value: Value) {
    self.value = value
  }
}

/// A generic class that Observation does not track.
@KeyValueObservable
final class Box<Value> {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// A base class and a subclass that adds keys, both tracked.
@KeyValueObservable
class Document: Observable {
  var name = ""
  var wordCount: Int { name.split(separator: " ").count }
}

@KeyValueObservable
final class Draft: Document {
  var revision = 0
  var label: String { "\(name) r\(revision)" }
}

/// A model that any thread may change: not isolated, and `Sendable` by its
/// author's word.
@KeyValueObservable
nonisolated final class Counter: @unchecked Sendable {
  var value = 0
}

/// Links whose initial values call initializers isolated to the main actor,
/// as every initializer in this module is: one with its type written, one
/// in a class that says `@MainActor` itself.
@KeyValueObservable
final class Workspace {
  var selection: Selection = Selection(index: 1)
  var history: [Selection] = [Selection(index: 0)]
}

@KeyValueObservable
@MainActor
final class Pane {
  var selection = Selection(index: 2)
}

@KeyValueObservable
final class Selection {
  var index: Int

  init(index: Int) {
    self.index = index
  }
}
