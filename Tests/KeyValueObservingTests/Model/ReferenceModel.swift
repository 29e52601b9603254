import KeyValueObserving

/// KVO's rules in plain Swift, for the model-based tests: two cells'
/// values, the registrations on them, and the notifications each
/// registration should receive, following DESIGN.md's parity rules.
struct ReferenceModel {
  struct CellState {
    var a = 0
    var b = 0
    var items: [Int] = []
    var ids: Set<Int> = []
    /// The index of the linked cell.
    var link: Int?
  }

  enum Kind: String {
    case token, classic, controller
  }

  struct Registration {
    let id: Int
    let cell: Int
    let key: ModelKey
    let options: KeyValueObservingOptions
    let kind: Kind
    var isLive = true
  }

  var cells = [CellState(), CellState()]
  var registrations: [Registration] = []
  /// The notifications each registration should have received, by id.
  var expected: [Int: [Note]] = [:]

  /// The value of `key` on `cell`, as text.
  func value(of key: ModelKey, on cell: Int) -> String {
    let state = cells[cell]
    switch key {
    case .a: return "\(state.a)"
    case .b: return "\(state.b)"
    case .items: return "\(state.items)"
    case .total: return "\(state.a + state.b)"
    case .linkA: return state.link.map { "\(cells[$0].a)" } ?? "nil"
    case .ids: return "set\(state.ids.sorted())"
    }
  }

  // MARK: Registrations

  /// Registers, sending `.initial` if asked.
  mutating func register(id: Int, cell: Int, key: ModelKey, options: KeyValueObservingOptions, kind: Kind) {
    registrations.append(Registration(id: id, cell: cell, key: key, options: options, kind: kind))
    expected[id, default: []] = []
    if options.contains(.initial) {
      expected[id]!.append(Note(kind: .setting, new: options.contains(.new) ? value(of: key, on: cell) : nil))
    }
  }

  /// Ends the registration `id`.
  mutating func end(id: Int) {
    if let index = registrations.firstIndex(where: { $0.id == id }) {
      registrations[index].isLive = false
    }
  }

  /// Whether the controller observes `key` on `cell` already.
  func controllerObserves(cell: Int, key: ModelKey) -> Bool {
    registrations.contains { $0.kind == .controller && $0.isLive && $0.cell == cell && $0.key == key }
  }

  /// Cell `cell` is freed and replaced by a fresh one: its registrations
  /// end silently.
  mutating func replaceCell(_ cell: Int) {
    for index in registrations.indices where registrations[index].cell == cell {
      registrations[index].isLive = false
    }
    cells[cell] = CellState()
  }

  // MARK: Changes

  /// The registrations a change of the stored key `key` of `cell` reaches:
  /// that key, keys computed from it, and chains through the cell.
  private func reached(byChangeOf key: ModelKey, of cell: Int) -> [Int] {
    registrations.indices.filter { index in
      let registration = registrations[index]
      guard registration.isLive else { return false }
      switch (key, registration.key) {
      case (.a, .a), (.b, .b), (.items, .items), (.ids, .ids):
        return registration.cell == cell
      case (.a, .total), (.b, .total):
        return registration.cell == cell
      case (.a, .linkA):
        return cells[registration.cell].link == cell
      default:
        return false
      }
    }
  }

  /// A whole-value change of registrations `reached`, `change` applied in
  /// between reading the values before and after.
  private mutating func setting(_ reached: [Int], _ change: (inout ReferenceModel) -> Void) {
    let before = reached.map { value(of: registrations[$0].key, on: registrations[$0].cell) }
    for (index, old) in zip(reached, before) where registrations[index].options.contains(.prior) {
      let registration = registrations[index]
      expected[registration.id]!.append(
        Note(kind: .setting, isPrior: true, old: registration.options.contains(.old) ? old : nil))
    }
    change(&self)
    for (index, old) in zip(reached, before) {
      let registration = registrations[index]
      let new = value(of: registration.key, on: registration.cell)
      expected[registration.id]!.append(
        Note(
          kind: .setting,
          old: registration.options.contains(.old) ? old : nil,
          new: registration.options.contains(.new) ? new : nil
        ))
    }
  }

  mutating func setA(_ value: Int, on cell: Int) {
    setting(reached(byChangeOf: .a, of: cell)) { $0.cells[cell].a = value }
  }

  mutating func setB(_ value: Int, on cell: Int) {
    setting(reached(byChangeOf: .b, of: cell)) { $0.cells[cell].b = value }
  }

  mutating func setLink(_ link: Int?, on cell: Int) {
    let reached = registrations.indices.filter {
      registrations[$0].isLive && registrations[$0].cell == cell && registrations[$0].key == .linkA
    }
    setting(reached) { $0.cells[cell].link = link }
  }

  /// An array change of `cell`'s items at `position`: `removed` elements
  /// go, `inserted` ones arrive; one notification of `kind`.
  mutating func changeItems(
    of cell: Int,
    kind: KeyValueChange,
    at positions: Range<Int>,
    inserting inserted: [Int]
  ) {
    let replaced = kind == .insertion ? positions.lowerBound..<positions.lowerBound : positions
    let removed = Array(cells[cell].items[replaced])
    for index in reached(byChangeOf: .items, of: cell) {
      let registration = registrations[index]
      let options = registration.options
      if options.contains(.prior) {
        expected[registration.id]!.append(
          Note(
            kind: kind,
            isPrior: true,
            old: options.contains(.old) && kind != .insertion ? "\(removed)" : nil,
            indexes: [positions]
          ))
      }
      expected[registration.id]!.append(
        Note(
          kind: kind,
          old: options.contains(.old) && kind != .insertion ? "\(removed)" : nil,
          new: options.contains(.new) && kind != .removal ? "\(inserted)" : nil,
          indexes: [positions]
        ))
    }
    cells[cell].items.replaceSubrange(replaced, with: inserted)
  }

  /// A set mutation of `cell`'s ids — by the proxy or by hand — with
  /// `objects`: one notification without indexes, of the kind and with the
  /// elements Apple's rules give (union: an insertion of the objects not
  /// there; minus: a removal of the objects that were; intersect: a removal
  /// of the elements not among the objects; set: a replacement, old the
  /// elements removed, new those added).
  mutating func changeIDs(of cell: Int, _ mutation: KeyValueSetMutation, using objects: Set<Int>) {
    let current = cells[cell].ids
    let kind: KeyValueChange
    let dropped: Set<Int>
    let added: Set<Int>
    let after: Set<Int>
    switch mutation {
    case .union: (kind, dropped, added, after) = (.insertion, [], objects.subtracting(current), current.union(objects))
    case .minus: (kind, dropped, added, after) = (.removal, objects.intersection(current), [], current.subtracting(objects))
    case .intersect:
      (kind, dropped, added, after) = (.removal, current.subtracting(objects), [], current.intersection(objects))
    case .set: (kind, dropped, added, after) = (.replacement, current.subtracting(objects), objects.subtracting(current), objects)
    }
    for index in reached(byChangeOf: .ids, of: cell) {
      let registration = registrations[index]
      let options = registration.options
      let old = options.contains(.old) && kind != .insertion ? "set\(dropped.sorted())" : nil
      if options.contains(.prior) {
        expected[registration.id]!.append(Note(kind: kind, isPrior: true, old: old))
      }
      expected[registration.id]!.append(
        Note(kind: kind, old: old, new: options.contains(.new) && kind != .removal ? "set\(added.sorted())" : nil))
    }
    cells[cell].ids = after
  }
}
