/// Bindings and tracked closures composed, in plain Swift, for
/// `CompositionModelTests`: five cells' `a` as integers, each cell's
/// registrations in the order they were made, and what each of them sees.
/// It calls nothing of the library.
///
/// The rules it states:
/// - A change of a cell's `a` reaches the registrations it had when the
///   change started, in the order they were made; one made during the
///   change waits for the next, one ended during it is not called. Every
///   set is a change, an equal value too. A tracked closure's
///   registration is told a will before the value changes and a did
///   after, in its place among the others.
/// - A binding is a registration on its source's `a` (both ways, then
///   one on its target's), and carries from a side by reading that side
///   now: a value the other side holds already is not written; both ways,
///   the written side is read back, and a value that differs (a
///   correction) is carried back next.
/// - One writer at a time per binding (its gate): while it writes side W,
///   the first change of W it is told of is the echo of its write; any
///   later one, and any change of the other side, waits, and is carried
///   after the write, the source first, reading that side anew. After a
///   hundred rounds more it gives up: `bindingDidNotSettle`.
/// - A binding does not write a cell that a binding write under way
///   carries from (the chain of origins, a stack): rings, the same
///   binding made twice settle in one pass. A cell bound to itself is
///   refused: `bindingToItself`.
/// - A binding ended during its own write (by a tracked closure that runs
///   in it) is told of no change after, but finishes the carry under way:
///   the correction of the write it was making, and what waited, are
///   still carried.
/// - A tracked closure runs at once, and registers with what its run read
///   itself (after the run); what a binding it makes, a nested closure or
///   a handler told meanwhile reads is theirs. It runs again at the did
///   of a change of that, once for the changes nested in one (their wills
///   join the open change), unless it is running: a change it makes
///   itself does not run it again.
final class CompositionReference {
  enum Side {
    case source, target

    var other: Side { self == .source ? .target : .source }
  }

  final class Binding {
    let source: Int
    let target: Int
    let twoWay: Bool
    /// What the target holds: the source's value plus this.
    let shift: Int
    var isLive = true
    /// The gate: the side the write under way writes, `nil` when none.
    var writing: Side?
    var echoTold = false
    var waiting: Set<Side> = []
    fileprivate var registrations: [Registration] = []

    init(source: Int, target: Int, twoWay: Bool, shift: Int) {
      self.source = source
      self.target = target
      self.twoWay = twoWay
      self.shift = shift
    }

    func cell(_ side: Side) -> Int { side == .source ? source : target }
  }

  /// What a tracked closure does in its run.
  enum Role {
    /// Reads cell 0's `a`, and binds cell 1's `a` to cell 2's both ways,
    /// ending the binding its previous run made.
    case binder
    /// Reads cell 3's `a`; observes cell 1's with `.initial` (the
    /// watcher), and starts `nested`, ending those its previous run made.
    case outer
    /// Reads cell 0's `a`, and writes it to cell 3's, which the outer
    /// closure reads, when it is at most 3.
    case nested

    var readCell: Int { self == .outer ? 3 : 0 }
  }

  final class Closure {
    let role: Role
    var isLive = true
    var isRunning = false
    /// The wills of its change under way not yet closed by their did.
    var openWills = 0
    fileprivate var registration: Registration?

    init(role: Role) {
      self.role = role
    }
  }

  fileprivate enum Receiver {
    case counter
    /// Sets `a` to 3 when it is greater.
    case clamp
    /// At its first notification, ends itself and sets cell `to`'s `a`
    /// to `value`.
    case relay(to: Int, value: Int)
    case binding(Binding, Side)
    case closure(Closure)
    /// Reads cells 1 and 2 (and is told of cell 1's changes).
    case watcher
  }

  /// One registration on a cell's `a`. A class, so that a change's
  /// snapshot sees it end.
  fileprivate final class Registration {
    let receiver: Receiver
    var isLive = true

    init(_ receiver: Receiver) {
      self.receiver = receiver
    }
  }

  private(set) var values: [Int]
  /// What the registrations saw since the last `takeTrace()`, in order.
  private var trace: [CompositionEvent] = []
  /// The diagnostics reported since the last `takeDiagnostics()`.
  private var diagnostics: [String] = []
  private var registrations: [[Registration]]
  /// The cells the binding writes under way carry from, innermost last.
  private var clamps: [Int: Registration] = [:]
  private var binder: Closure?
  private var binderBinding: Binding?
  private var outer: Closure?
  private var nested: Closure?
  private var watcher: Registration?

  /// `count` cells, each with a counting registration first.
  init(cells count: Int) {
    values = Array(repeating: 0, count: count)
    registrations = (0..<count).map { _ in [Registration(.counter)] }
  }

  func takeTrace() -> [CompositionEvent] {
    defer { trace = [] }
    return trace
  }

  func takeDiagnostics() -> [String] {
    defer { diagnostics = [] }
    return diagnostics
  }

  // MARK: Operations

  func set(_ cell: Int, to value: Int) {
    let snapshot = registrations[cell]
    for registration in snapshot where registration.isLive {
      if case .closure(let closure) = registration.receiver { closure.openWills += 1 }
    }
    values[cell] = value
    for registration in snapshot {
      if case .closure(let closure) = registration.receiver {
        // Told even when ended since its will: the did closes the change.
        didChange(closure)
        continue
      }
      guard registration.isLive else { continue }
      switch registration.receiver {
      case .counter: trace.append(.counted(cell: cell, value: values[cell]))
      case .clamp: if values[cell] > 3 { set(cell, to: 3) }
      case .relay(let other, let value):
        remove(registration)
        set(other, to: value)
      case .binding(let binding, let side): carry(binding, from: side)
      case .watcher: trace.append(.watched(cell1: values[1], cell2: values[2]))
      case .closure: break
      }
    }
  }

  /// Binds `source`'s `a` to `target`'s, and writes the side across from
  /// `initial`; `nil` for a cell bound to itself, refused.
  func bind(_ source: Int, to target: Int, twoWay: Bool, shift: Int = 0, initial: Side) -> Binding? {
    guard source != target else {
      diagnostics.append("bindingToItself")
      return nil
    }
    let binding = Binding(source: source, target: target, twoWay: twoWay, shift: shift)
    register(.binding(binding, .source), on: source)
    if twoWay { register(.binding(binding, .target), on: target) }
    carry(binding, from: initial)
    return binding
  }

  func end(_ binding: Binding) {
    binding.isLive = false
    for registration in binding.registrations { remove(registration) }
  }

  func toggleClamp(on cell: Int) {
    if let clamp = clamps.removeValue(forKey: cell) {
      remove(clamp)
    } else {
      clamps[cell] = register(.clamp, on: cell)
    }
  }

  func armRelay(on cell: Int, to other: Int, value: Int) {
    register(.relay(to: other, value: value), on: cell)
  }

  func toggleBinder() {
    if let binder {
      end(binder)
      self.binder = nil
      if let binding = binderBinding { end(binding) }
      binderBinding = nil
    } else {
      binder = start(.binder)
    }
  }

  func toggleNesting() {
    if let outer {
      end(outer)
      self.outer = nil
      if let nested { end(nested) }
      nested = nil
      if let watcher { remove(watcher) }
      watcher = nil
    } else {
      outer = start(.outer)
    }
  }

  // MARK: Registrations

  @discardableResult
  private func register(_ receiver: Receiver, on cell: Int) -> Registration {
    let registration = Registration(receiver)
    registrations[cell].append(registration)
    if case .binding(let binding, _) = receiver { binding.registrations.append(registration) }
    return registration
  }

  private func remove(_ registration: Registration) {
    registration.isLive = false
    for cell in registrations.indices { registrations[cell].removeAll { $0 === registration } }
  }

  // MARK: Bindings

  private func carry(_ binding: Binding, from side: Side) {
    if let writing = binding.writing {
      if writing == side && !binding.echoTold {
        binding.echoTold = true
      } else {
        binding.waiting.insert(side)
      }
      return
    }
    binding.writing = side.other
    var side = side
    var rounds = 0
    while true {
      let corrected = write(binding, from: side)
      var waiting = binding.waiting
      if let corrected { waiting.insert(corrected) }
      guard !waiting.isEmpty, rounds < 100 else {
        binding.writing = nil
        binding.echoTold = false
        binding.waiting = []
        if !waiting.isEmpty { diagnostics.append("bindingDidNotSettle") }
        return
      }
      side = waiting.contains(.source) ? .source : .target
      binding.waiting = waiting.subtracting([side])
      binding.writing = side.other
      binding.echoTold = false
      rounds += 1
    }
  }

  /// Writes the side across from `side`; returns it when it was corrected.
  /// An ended binding writes nothing more.
  private func write(_ binding: Binding, from side: Side) -> Side? {
    guard binding.isLive else { return nil }
    let written = side.other
    let cell = binding.cell(written)
    // The cells hold `Int`s, which are `Equatable`: an equal value is not
    // written, which stops a ring (the write chain is for other values).
    let value = side == .source ? values[binding.source] + binding.shift : values[binding.target] - binding.shift
    guard values[cell] != value else { return nil }
    set(cell, to: value)
    return binding.twoWay && values[cell] != value ? written : nil
  }

  // MARK: Tracked closures

  private func start(_ role: Role) -> Closure {
    let closure = Closure(role: role)
    run(closure)
    closure.registration = register(.closure(closure), on: role.readCell)
    return closure
  }

  private func end(_ closure: Closure) {
    closure.isLive = false
    if let registration = closure.registration { remove(registration) }
  }

  private func didChange(_ closure: Closure) {
    if closure.openWills > 1 {
      closure.openWills -= 1
      return
    }
    if closure.isLive && !closure.isRunning { run(closure) }
    closure.openWills = max(0, closure.openWills - 1)
  }

  private func run(_ closure: Closure) {
    closure.isRunning = true
    defer { closure.isRunning = false }
    let read = values[closure.role.readCell]
    switch closure.role {
    case .binder:
      trace.append(.binderRan(read: read))
      if let binding = binderBinding { end(binding) }
      binderBinding = bind(1, to: 2, twoWay: true, initial: read % 2 == 0 ? .source : .target)
    case .outer:
      trace.append(.outerRan(read: read))
      if let watcher { remove(watcher) }
      watcher = register(.watcher, on: 1)
      trace.append(.watched(cell1: values[1], cell2: values[2]))
      if let nested { end(nested) }
      nested = start(.nested)
    case .nested:
      trace.append(.nestedRan(read: read))
      if read <= 3 { set(3, to: read) }
    }
  }
}

/// What a registration of `CompositionModelTests` saw: a counting
/// observer told of a change, a tracked closure's run, or the watcher's
/// notification, each with the values it read.
enum CompositionEvent: Equatable, CustomStringConvertible {
  case counted(cell: Int, value: Int)
  case binderRan(read: Int)
  case outerRan(read: Int)
  case nestedRan(read: Int)
  case watched(cell1: Int, cell2: Int)

  var description: String {
    switch self {
    case .counted(let cell, let value): "counter\(cell) told, a = \(value)"
    case .binderRan(let read): "binder ran, cell0.a = \(read)"
    case .outerRan(let read): "outer ran, cell3.a = \(read)"
    case .nestedRan(let read): "nested ran, cell0.a = \(read)"
    case .watched(let cell1, let cell2): "watcher told, cell1.a = \(cell1), cell2.a = \(cell2)"
    }
  }
}
