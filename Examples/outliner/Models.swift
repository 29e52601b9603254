import KeyValueObserving

/// The document: a title and an outline of items. `Codable` makes the
/// macro write an `encode(to:)` that reads through the observable getters,
/// so a tracked closure that encodes the document observes all it encoded.
@MainActor
@KeyValueObservable
final class OutlineDocument: Codable {
  var title = "Untitled"
  var items: [OutlineItem] = []

  init() {}

  /// Computed keys: observable with no declaration, their dependencies
  /// (every item's `done` and `children`, at any depth) found by running them.
  var openCount: Int { items.reduce(0) { $0 + $1.count(done: false) } }
  var doneCount: Int { items.reduce(0) { $0 + $1.count(done: true) } }
  var summary: String { "\(title): \(openCount) open, \(doneCount) done" }
}

/// One line of the outline, with its own children.
@MainActor
@KeyValueObservable
final class OutlineItem: Codable {
  var text: String
  var done = false
  /// A day number; `nil` when the item has no due date.
  var due: Int?
  var children: [OutlineItem] = []

  init(text: String, due: Int? = nil) {
    self.text = text
    self.due = due
  }

  /// How many items, this one and those below it, are done (or open).
  func count(done: Bool) -> Int {
    children.reduce(self.done == done ? 1 : 0) { $0 + $1.count(done: done) }
  }
}
