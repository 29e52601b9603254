import KeyValueObservingCombine

/// A model with every kind of key a publisher can follow.
@KeyValueObservable
final class Profile: @unchecked Sendable {
  // @unchecked Sendable: while one thread writes `age`, the threading tests
  // read it on no other (the change values are read by the writer); or they
  // notify `age` by hand without writing it.
  var name = ""
  var age = 0
  var tags: [String] = []
  var ids: Set<Int> = []
  var home: Place?
  var summary: String { "\(name), \(age)" }

  init(name: String = "", age: Int = 0) {
    self.name = name
    self.age = age
  }
}

/// A link of a chain: `\Profile.home?.city`.
@KeyValueObservable
final class Place {
  var city: String

  init(city: String) {
    self.city = city
  }
}

/// A target of `assign(to:on:)`, observable in turn.
@KeyValueObservable
final class Label {
  var text = ""
  @KeyValueIgnored var assignments = 0
  var caption: String {
    get { text }
    set {
      assignments += 1
      text = newValue
    }
  }
}

/// Main-actor models get publishers too.
@MainActor
@KeyValueObservable
final class Screen {
  var title = "Home"
}
