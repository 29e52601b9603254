import KeyValueObserving
import Observation

/// The model the tour observes.
@KeyValueObservable
class Person {
  var name: String
  var age: Int {
    // A property's own observers keep working, and run before KVO's.
    didSet { if age < 0 { age = 0 } }
  }
  var nickname: String?
  var address: Address?
  var skills: [String] = []
  @KeyValueIgnored var renderCount = 0

  /// Computed: observable with no declaration, its dependencies found by
  /// running it.
  var greeting: String { "\(nickname ?? name), \(age)" }

  init(name: String, age: Int) {
    self.name = name
    self.age = age
  }
}

/// A subclass adds its own keys after its superclass's.
@KeyValueObservable
final class Employee: Person {
  var title = "Engineer"
}

/// A link of a chain: `person.address?.city`.
@KeyValueObservable
final class Address {
  var city: String

  init(city: String) {
    self.city = city
  }
}

/// An observer in the Objective-C style: one method for every key it
/// observes, with a change dictionary.
final class ChangePrinter: KeyValueObserver {
  let name: String

  init(name: String) {
    self.name = name
  }

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    let values = [KeyValueChangeKey.old, .new].compactMap { key in change[key].map { "\(key) \($0)" } }
    print("   \(name).observeValue(forKeyPath: \"\(keyPath)\"): \(change[.kind]!), \(values.joined(separator: ", "))")
  }
}

/// A model that is also `Codable`: it encodes as `{"lines":…,"title":…}`.
@KeyValueObservable
final class Note: Codable {
  var title: String
  var lines: Int

  init(title: String, lines: Int) {
    self.title = title
    self.lines = lines
  }
}

/// A view-model-like observer: it owns a controller, and everything it
/// observes stops when it goes away.
final class ProfileViewModel {
  private(set) var headline = ""
  private lazy var kvo = KVOController(observer: self)

  init(person: Person) {
    kvo.observe(person, \.name, options: [.old, .new], action: ProfileViewModel.nameChanged)
    kvo.observe(person, \.greeting, options: [.initial, .new]) { viewModel, _, change in
      viewModel.headline = change.newValue ?? ""
      print("   view model headline: \(viewModel.headline)")
    }
    try? kvo.observe(person, keyPaths: ["name", "age"], options: .new) { _, _, change in
      print("   view model saw \(change[.keyPath]!) change to \(change[.new]!)")
    }
  }

  /// Called by the controller as an action: a method, no closure, no
  /// capture list.
  func nameChanged(_ person: Person, _ change: KeyValueObservedChange<String>) {
    print("   view model action: name \(change.oldValue!) → \(change.newValue!)")
  }

  var observing: String { kvo.debugDescription }
}

/// A model for Swift Observation and key-value observing at once, on the
/// main actor as SwiftUI models usually are.
@MainActor
@KeyValueObservable
final class Sheet: Observable {
  var title = "Untitled"
  var rows: [Double] = []
  var total: Double { rows.reduce(0, +) }
}
