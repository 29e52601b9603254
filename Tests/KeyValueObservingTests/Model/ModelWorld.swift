import KeyValueObserving

/// The observable class the model-based tests drive: stored keys, an array
/// key, a computed key and a link for chains.
@KeyValueObservable
final class Cell {
  var a = 0
  var b = 0
  var items: [Int] = []
  var ids: Set<Int> = []
  var link: Cell?
  var total: Int { a + b }
}

/// The keys a registration can observe.
enum ModelKey: Int, CaseIterable, CustomStringConvertible {
  case a, b, items, total, linkA, ids

  /// The string key path of a classic observer.
  var string: String {
    switch self {
    case .a: "a"
    case .b: "b"
    case .items: "items"
    case .total: "total"
    case .linkA: "link.a"
    case .ids: "ids"
    }
  }

  var description: String { string }
}

/// One notification, with its values written out so that typed changes and
/// change dictionaries compare alike. `old`/`new` are `nil` when absent.
struct Note: Equatable, CustomStringConvertible {
  var kind: KeyValueChange
  var isPrior = false
  var old: String?
  var new: String?
  var indexes: [Range<Int>]?

  var description: String {
    var parts = ["\(kind)"]
    if isPrior { parts.append("prior") }
    if let old { parts.append("old \(old)") }
    if let new { parts.append("new \(new)") }
    if let indexes { parts.append("at \(indexes.map { "\($0.lowerBound)..<\($0.upperBound)" })") }
    return parts.joined(separator: " ")
  }

  /// A typed change, written out.
  init<Value>(_ change: KeyValueObservedChange<Value>) {
    kind = change.kind
    isPrior = change.isPrior
    old = change.oldValue.map(Note.text)
    new = change.newValue.map(Note.text)
    indexes = change.indexes.map { Array($0.ranges) }
  }

  /// A change dictionary, written out.
  init(_ change: [KeyValueChangeKey: Any]) {
    kind = change[.kind] as! KeyValueChange
    isPrior = change[.notificationIsPrior] as? Bool ?? false
    old = change[.old].map(Note.text)
    new = change[.new].map(Note.text)
    indexes = (change[.indexes] as? RangeSet<Int>).map { Array($0.ranges) }
  }

  init(kind: KeyValueChange, isPrior: Bool = false, old: String? = nil, new: String? = nil, indexes: [Range<Int>]? = nil) {
    self.kind = kind
    self.isPrior = isPrior
    self.old = old
    self.new = new
    self.indexes = indexes
  }

  /// A value as text, optionals unwrapped (`nil` for none), sets sorted.
  static func text(_ value: Any) -> String {
    var current: Any = value
    while let optional = current as? any OptionalText {
      guard let wrapped = optional.wrapped else { return "nil" }
      current = wrapped
    }
    if let set = current as? Set<Int> {
      return "set\(set.sorted())"
    }
    return "\(current)"
  }
}

/// Unwraps optionals held in an `Any`.
private protocol OptionalText {
  var wrapped: Any? { get }
}

extension Optional: OptionalText {
  fileprivate var wrapped: Any? { map { $0 as Any } }
}
