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
    indexes = (change[.indexes] as? KeyValueIndexSet)?.ranges
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

/// What a registration's callback does, once: the first time it is called
/// in the pass its ``Trigger`` names. Each is also an operation of a
/// sequence (``ModelOperation``).
enum CallbackAction: CustomStringConvertible {
  case observe(cell: Int, key: ModelKey, options: KeyValueObservingOptions)
  /// Invalidates one of the tokens made so far (an ended one: nothing).
  case invalidate(pick: Int)
  case setA(cell: Int, value: Int)
  case setB(cell: Int, value: Int)
  case addObserver(cell: Int, key: ModelKey, options: KeyValueObservingOptions)
  /// Removes one of the classic observers added so far, if still there.
  case removeObserver(pick: Int)
  case controllerObserve(cell: Int, key: ModelKey, options: KeyValueObservingOptions)
  case controllerUnobserve(cell: Int, key: ModelKey)

  /// Decoded from `take`, which hands out the generated number's digits.
  init(_ take: (Int) -> Int) {
    let cell = take(2)
    let key = ModelKey(rawValue: take(6))!
    let options = KeyValueObservingOptions(rawValue: take(16))
    let value = take(4)
    let pick = take(64)
    switch take(8) {
    case 0: self = .observe(cell: cell, key: key, options: options)
    case 1: self = .invalidate(pick: pick)
    case 2: self = .setA(cell: cell, value: value)
    case 3: self = .setB(cell: cell, value: value)
    case 4: self = .addObserver(cell: cell, key: key, options: options)
    case 5: self = .removeObserver(pick: pick)
    case 6: self = .controllerObserve(cell: cell, key: key, options: options)
    default: self = .controllerUnobserve(cell: cell, key: key)
    }
  }

  var description: String {
    switch self {
    case .observe(let cell, let key, let options): "observe(cell\(cell).\(key), \(options))"
    case .invalidate(let pick): "invalidate(token #\(pick) mod count)"
    case .setA(let cell, let value): "cell\(cell).a = \(value)"
    case .setB(let cell, let value): "cell\(cell).b = \(value)"
    case .addObserver(let cell, let key, let options): "addObserver(cell\(cell), \"\(key)\", \(options))"
    case .removeObserver(let pick): "removeObserver(classic #\(pick) mod count)"
    case .controllerObserve(let cell, let key, let options): "controller.observe(cell\(cell).\(key), \(options))"
    case .controllerUnobserve(let cell, let key): "controller.unobserve(cell\(cell).\(key))"
    }
  }
}

/// What a callback does, once, the first time it runs in its pass (the
/// prior notification's, or the one after the change): one or two
/// actions, then, sometimes, ending its own registration; and, when an
/// action registers, the trigger of what it registers.
final class Trigger: CustomStringConvertible {
  let actions: [CallbackAction]
  let inPrior: Bool
  /// Whether the callback then ends the registration it belongs to
  /// (invalidates its token, removes its observer, unobserves its key).
  let endsItself: Bool
  let next: Trigger?

  init(actions: [CallbackAction], inPrior: Bool, endsItself: Bool = false, next: Trigger? = nil) {
    self.actions = actions
    self.inPrior = inPrior
    self.endsItself = endsItself
    self.next = next
  }

  /// A trigger for `registration`, decoded from `take`, or `nil` (one in
  /// four): in the prior pass (the registration then asks for `.prior`)
  /// or the did pass; one or two actions, each a write half of the time;
  /// ending its own registration one time in three; and for an action
  /// that registers, a trigger of its own one level down.
  convenience init?(_ take: (Int) -> Int, for registration: CallbackAction, depth: Int = 0) {
    let when = take(4)
    guard when < 3, registration.registers else { return nil }
    var actions: [CallbackAction] = []
    for _ in 0...take(2) {
      switch take(4) {
      case 0: actions.append(.setA(cell: take(2), value: take(4)))
      case 1: actions.append(.setB(cell: take(2), value: take(4)))
      default: actions.append(CallbackAction(take))
      }
    }
    let endsItself = take(3) == 0
    let registering = actions.firstIndex(where: \.registers)
    let next = depth < 1 ? registering.flatMap { Trigger(take, for: actions[$0], depth: depth + 1) } : nil
    if let registering, next?.inPrior == true {
      actions[registering] = actions[registering].askingForPrior
    }
    self.init(actions: actions, inPrior: when == 0, endsItself: endsItself, next: next)
  }

  /// Whether a notification, `isPrior` or not, fires it.
  func fires(onPrior isPrior: Bool) -> Bool { inPrior == isPrior }

  var description: String {
    "in its \(inPrior ? "prior" : "did") callback: \(actions.map(\.description).joined(separator: "; "))"
      + (endsItself ? "; then ends itself" : "") + (next.map { " (what it registers, \($0))" } ?? "")
  }
}

extension CallbackAction {
  /// A registration, decoded from `take`: a token, a classic observer or
  /// a controller's observation.
  init(registering take: (Int) -> Int) {
    let cell = take(2)
    let key = ModelKey(rawValue: take(6))!
    let options = KeyValueObservingOptions(rawValue: take(16))
    switch take(3) {
    case 0: self = .observe(cell: cell, key: key, options: options)
    case 1: self = .addObserver(cell: cell, key: key, options: options)
    default: self = .controllerObserve(cell: cell, key: key, options: options)
    }
  }

  /// The same registration, asking for `.prior` too.
  var askingForPrior: CallbackAction {
    switch self {
    case .observe(let cell, let key, let options): .observe(cell: cell, key: key, options: options.union(.prior))
    case .addObserver(let cell, let key, let options): .addObserver(cell: cell, key: key, options: options.union(.prior))
    case .controllerObserve(let cell, let key, let options):
      .controllerObserve(cell: cell, key: key, options: options.union(.prior))
    default: self
    }
  }

  /// Whether the action registers something, which a trigger can be
  /// given to.
  var registers: Bool {
    switch self {
    case .observe, .addObserver, .controllerObserve: true
    default: false
    }
  }
}
