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

/// Everything a to-many change carries, comparable.
struct CollectionChange<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
  var kind: KeyValueChange
  var indexes: [Range<Int>]?
  var old: Value?
  var new: Value?
  var isPrior = false

  init(_ kind: KeyValueChange, _ indexes: [Range<Int>]?, old: Value? = nil, new: Value? = nil, isPrior: Bool = false) {
    self.kind = kind
    self.indexes = indexes
    self.old = old
    self.new = new
    self.isPrior = isPrior
  }

  init(_ change: KeyValueObservedChange<Value>) {
    self.init(
      change.kind,
      change.indexes.map { Array($0.ranges) },
      old: change.oldValue,
      new: change.newValue,
      isPrior: change.isPrior
    )
  }

  var description: String {
    "\(kind) \(indexes.map { "\($0)" } ?? "-") old: \(old.map { "\($0)" } ?? "-") new: \(new.map { "\($0)" } ?? "-")"
      + (isPrior ? " prior" : "")
  }
}

/// Observes `keyPath` with `options`, recording every change.
func record<Object: KeyValueObservable, Value: Equatable & Sendable>(
  _ object: Object,
  _ keyPath: KeyPath<Object, Value>,
  options: KeyValueObservingOptions = [.old, .new]
) -> (Recorder<CollectionChange<Value>>, KeyValueObservation) {
  let recorder = Recorder<CollectionChange<Value>>()
  let token = object.observe(keyPath, options: options) { _, change in recorder.append(CollectionChange(change)) }
  return (recorder, token)
}
