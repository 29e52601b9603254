import KeyValueObserving

/// The values of a change, comparable.
struct Change<Value: Equatable & Sendable>: Equatable, Sendable {
  var old: Value?
  var new: Value?

  init(old: Value?, new: Value?) {
    self.old = old
    self.new = new
  }

  init(_ change: KeyValueObservedChange<Value>) {
    self.init(old: change.oldValue, new: change.newValue)
  }
}
