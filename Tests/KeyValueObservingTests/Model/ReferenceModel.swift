import KeyValueObserving

/// KVO's rules in plain Swift, for the model-based tests: two cells'
/// values, the registrations on them, and the notifications each
/// registration should receive, following the rules Objective-C KVO has
/// and the articles state — callbacks that change registrations and
/// values while a change is under way included.
///
/// The rules it states:
/// - A change of a stored key reaches the registrations the key had when
///   the change started, in the order they were added to it; one added
///   during the change waits for the next, one removed during it is not
///   called again (a derived key's dependency still gets its did, which
///   only closes).
/// - The old value is read when the change starts, the new one after the
///   mutation; every registration of the change gets the same values.
/// - Prior notifications, then the mutation, then the others. A change of
///   a key made inside the prior callbacks of a change of the same key
///   only changes it (the outer change reports the final value); one made
///   in a did callback is a change of its own.
/// - A derived key (`total`, `link.a`) depends on keys, and registers with
///   each; the first will of one of them opens its change (old value,
///   prior notification), later wills join it, and the did that closes
///   the last one notifies once with the value read then, re-registering
///   with what the value depends on now (a link replaced: the new linked
///   cell's `a`, added after the registrations it has).
final class ReferenceModel {
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
    var trigger: Trigger?
  }

  /// A stored key of a cell: what has a list of registrations.
  struct Slot: Hashable {
    enum Key: Hashable {
      case a, b, items, ids, link
    }

    let cell: Int
    let key: Key
  }

  /// One entry of a slot's list: a registration observing the stored key
  /// itself, or a derived key's registration with one of its dependencies
  /// (`forwards`). A class, so that a change's snapshot sees it end.
  final class Entry {
    let registration: Int
    let forwards: Bool
    var isLive = true

    init(registration: Int, forwards: Bool) {
      self.registration = registration
      self.forwards = forwards
    }
  }

  /// A derived key's change under way: the entries whose wills wait for
  /// their dids, and the value before it.
  struct OpenChange {
    var opener: Entry?
    var joined: [Entry] = []
    let old: String
  }

  /// The state of one derived registration.
  final class Derived {
    var dependencies: [(slot: Slot, entry: Entry)] = []
    var open: OpenChange?
    var isEnded = false
    /// A dependency ended since the last will: the next will reads the
    /// value again, re-registering, before it counts.
    var mayBeStale = false
  }

  var cells = [CellState(), CellState()]
  /// Every registration made, by id, in the order of their ids.
  private(set) var registrations: [Int: Registration] = [:]
  /// The notifications each registration should have received, by id.
  private(set) var expected: [Int: [Note]] = [:]
  private var slots: [Slot: [Entry]] = [:]
  private var derived: [Int: Derived] = [:]
  /// The stored keys in their prior pass or mutation on this thread: a
  /// change of one of them made there only changes it.
  private var changing: [Slot] = []
  /// The next registration's id, counted as the library's harness does.
  private(set) var nextID = 0

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

  var liveRegistrations: [Registration] {
    registrations.values.filter(\.isLive).sorted { $0.id < $1.id }
  }

  // MARK: Operations, also made by callbacks

  /// Does what `action` does; returns the id of the registration it made.
  @discardableResult
  func perform(_ action: CallbackAction) -> Int? {
    switch action {
    case .observe(let cell, let key, let options):
      return register(cell: cell, key: key, options: options, kind: .token)
    case .invalidate(let pick):
      let tokens = registrations.values.filter { $0.kind == .token }.map(\.id).sorted()
      guard !tokens.isEmpty else { return nil }
      end(id: tokens[pick % tokens.count])
    case .setA(let cell, let value):
      setA(value, on: cell)
    case .setB(let cell, let value):
      set(Slot(cell: cell, key: .b)) { $0.cells[cell].b = value }
    case .addObserver(let cell, let key, let options):
      return register(cell: cell, key: key, options: options, kind: .classic)
    case .removeObserver(let pick):
      let observers = registrations.values.filter { $0.kind == .classic }.map(\.id).sorted()
      guard !observers.isEmpty else { return nil }
      end(id: observers[pick % observers.count])
    case .controllerObserve(let cell, let key, let options):
      // A second observation of the same key is ignored by the controller.
      guard !controllerObserves(cell: cell, key: key) else { return nil }
      return register(cell: cell, key: key, options: options, kind: .controller)
    case .controllerUnobserve(let cell, let key):
      for registration in liveRegistrations
      where registration.kind == .controller && registration.cell == cell && registration.key == key {
        end(id: registration.id)
      }
    }
    return nil
  }

  /// Gives registration `id` a callback action.
  func setTrigger(_ trigger: Trigger?, of id: Int) {
    registrations[id]?.trigger = trigger
  }

  // MARK: Registrations

  /// Registers, sending `.initial` if asked; returns the id.
  private func register(cell: Int, key: ModelKey, options: KeyValueObservingOptions, kind: Kind) -> Int {
    let id = nextID
    nextID += 1
    registrations[id] = Registration(id: id, cell: cell, key: key, options: options, kind: kind)
    expected[id] = []
    if let stored = key.storedKey {
      slots[Slot(cell: cell, key: stored), default: []].append(Entry(registration: id, forwards: false))
    } else {
      let state = Derived()
      derived[id] = state
      install(dependencies(of: key, on: cell), for: id, in: state)
    }
    if options.contains(.initial) {
      expected[id]!.append(Note(kind: .setting, new: options.contains(.new) ? value(of: key, on: cell) : nil))
    }
    return id
  }

  /// Ends the registration `id`.
  private func end(id: Int) {
    guard let registration = registrations[id], registration.isLive else { return }
    registrations[id]!.isLive = false
    if let state = derived[id] {
      state.isEnded = true
      for dependency in state.dependencies { remove(dependency.entry, from: dependency.slot) }
      state.dependencies = []
    } else if let stored = registration.key.storedKey {
      let slot = Slot(cell: registration.cell, key: stored)
      if let entry = slots[slot]?.first(where: { $0.registration == id && !$0.forwards }) {
        remove(entry, from: slot)
      }
    }
  }

  /// A classic observer freed while registered: never called again.
  func freeObserver(id: Int) {
    end(id: id)
  }

  private func remove(_ entry: Entry, from slot: Slot) {
    entry.isLive = false
    slots[slot]?.removeAll { $0 === entry }
  }

  /// Whether the controller observes `key` on `cell` already.
  func controllerObserves(cell: Int, key: ModelKey) -> Bool {
    registrations.values.contains { $0.kind == .controller && $0.isLive && $0.cell == cell && $0.key == key }
  }

  /// Cell `cell` is freed and replaced by a fresh one: its registrations
  /// end silently, and so do the registrations of derived keys with it.
  func replaceCell(_ cell: Int) {
    for registration in liveRegistrations where registration.cell == cell {
      end(id: registration.id)
    }
    for (slot, entries) in slots where slot.cell == cell {
      for entry in entries {
        entry.isLive = false
        derived[entry.registration]?.mayBeStale = true
      }
      slots[slot] = nil
    }
    cells[cell] = CellState()
  }

  // MARK: Derived keys

  /// What the derived `key` of `cell` depends on now, in the order its
  /// read finds it.
  private func dependencies(of key: ModelKey, on cell: Int) -> [Slot] {
    switch key {
    case .total: return [Slot(cell: cell, key: .a), Slot(cell: cell, key: .b)]
    case .linkA:
      return [Slot(cell: cell, key: .link)] + (cells[cell].link.map { [Slot(cell: $0, key: .a)] } ?? [])
    default: return []
    }
  }

  /// Registers derived registration `id` with `slots`, keeping its entries
  /// with the slots it had and dropping the others.
  private func install(_ wanted: [Slot], for id: Int, in state: Derived) {
    guard wanted != state.dependencies.map(\.slot) else { return }
    var previous = state.dependencies
    var next: [(slot: Slot, entry: Entry)] = []
    for slot in wanted {
      if let index = previous.firstIndex(where: { $0.slot == slot }) {
        next.append(previous.remove(at: index))
        continue
      }
      let entry = Entry(registration: id, forwards: true)
      slots[slot, default: []].append(entry)
      next.append((slot, entry))
    }
    for stale in previous {
      remove(stale.entry, from: stale.slot)
      state.mayBeStale = true
    }
    state.dependencies = next
  }

  /// Reads the derived key of `id` again and re-registers with what it
  /// depends on now.
  private func refresh(_ id: Int, _ state: Derived) -> String {
    let registration = registrations[id]!
    install(dependencies(of: registration.key, on: registration.cell), for: id, in: state)
    return value(of: registration.key, on: registration.cell)
  }

  /// A dependency's will, from `entry`.
  private func derivedWill(_ entry: Entry) {
    let id = entry.registration
    guard let state = derived[id] else { return }
    if state.mayBeStale {
      state.mayBeStale = false
      if !state.isEnded && registrations[id]!.isLive { _ = refresh(id, state) }
      guard entry.isLive else { return }
    }
    if state.open != nil {
      state.open!.joined.append(entry)
      return
    }
    let registration = registrations[id]!
    let old = value(of: registration.key, on: registration.cell)
    state.open = OpenChange(opener: entry, old: old)
    guard registration.options.contains(.prior), !state.isEnded else { return }
    deliver(Note(kind: .setting, isPrior: true, old: registration.options.contains(.old) ? old : nil), to: id)
  }

  /// A dependency's did, from `entry`.
  private func derivedDid(_ entry: Entry) {
    let id = entry.registration
    guard let state = derived[id] else { return }
    let old: String?
    if var open = state.open {
      if let index = open.joined.lastIndex(where: { $0 === entry }) {
        open.joined.remove(at: index)
      } else if open.opener === entry {
        open.opener = nil
      } else {
        return
      }
      guard open.opener == nil && open.joined.isEmpty else {
        state.open = open
        return
      }
      state.open = nil
      old = open.old
    } else {
      guard entry.isLive else { return }
      old = nil
    }
    guard !state.isEnded else { return }
    let new = refresh(id, state)
    let options = registrations[id]!.options
    deliver(
      Note(kind: .setting, old: options.contains(.old) ? old : nil, new: options.contains(.new) ? new : nil),
      to: id
    )
  }

  // MARK: Changes

  /// Records `note` for registration `id`, if it is still registered, and
  /// runs its callback's action if the note fires it.
  private func deliver(_ note: Note, to id: Int) {
    guard let registration = registrations[id], registration.isLive else { return }
    expected[id]!.append(note)
    if let trigger = registration.trigger, trigger.fires(onPrior: note.isPrior) {
      registrations[id]!.trigger = nil
      run(trigger, of: registration)
    }
  }

  /// Runs the actions of `trigger`, the trigger of `registration`.
  private func run(_ trigger: Trigger, of registration: Registration) {
    var next = trigger.next
    for action in trigger.actions {
      if let made = perform(action), action.registers, let given = next {
        setTrigger(given, of: made)
        next = nil
      }
    }
    guard trigger.endsItself, registrations[registration.id]!.isLive else { return }
    switch registration.kind {
    case .token, .classic: end(id: registration.id)
    case .controller: perform(.controllerUnobserve(cell: registration.cell, key: registration.key))
    }
  }

  /// A change of the stored key `slot`: `mutate` makes it; `prior` and
  /// `did` give a registration observing the key itself its
  /// notifications, with the values read before and after. `manual`: a
  /// will/did pair, which counts as changing the key from its will on.
  private func change(
    _ slot: Slot,
    manual: Bool = false,
    prior: (Registration, _ old: String) -> Note,
    did: (Registration, _ old: String, _ new: String) -> Note,
    mutate: (ReferenceModel) -> Void
  ) {
    let snapshot = slots[slot] ?? []
    let live = snapshot.filter(\.isLive)
    guard !live.isEmpty else {
      mutate(self)
      return
    }
    if changing.contains(slot) {
      mutate(self)
      return
    }
    let hasPrior = live.contains { $0.forwards || registrations[$0.registration]!.options.contains(.prior) }
    let nests = hasPrior || manual
    let old = text(of: slot)
    if nests {
      changing.append(slot)
      for entry in snapshot where entry.isLive {
        if entry.forwards {
          derivedWill(entry)
        } else if let registration = registrations[entry.registration], registration.options.contains(.prior) {
          deliver(prior(registration, old), to: registration.id)
        }
      }
      mutate(self)
      changing.removeAll { $0 == slot }
    } else {
      mutate(self)
    }
    let new = text(of: slot)
    for entry in snapshot {
      if entry.forwards {
        derivedDid(entry)
      } else if entry.isLive, let registration = registrations[entry.registration] {
        deliver(did(registration, old, new), to: registration.id)
      }
    }
  }

  /// The value of a stored key, as the notifications of a setting carry it.
  private func text(of slot: Slot) -> String {
    switch slot.key {
    case .a: "\(cells[slot.cell].a)"
    case .b: "\(cells[slot.cell].b)"
    case .items: "\(cells[slot.cell].items)"
    case .ids: "set\(cells[slot.cell].ids.sorted())"
    case .link: cells[slot.cell].link.map { "cell\($0)" } ?? "nil"
    }
  }

  /// A setting of `slot`, whole values old and new.
  private func set(_ slot: Slot, manual: Bool = false, _ mutate: (ReferenceModel) -> Void) {
    change(
      slot,
      manual: manual,
      prior: { registration, old in
        Note(kind: .setting, isPrior: true, old: registration.options.contains(.old) ? old : nil)
      },
      did: { registration, old, new in
        Note(
          kind: .setting,
          old: registration.options.contains(.old) ? old : nil,
          new: registration.options.contains(.new) ? new : nil
        )
      },
      mutate: mutate
    )
  }

  func setA(_ value: Int, on cell: Int) {
    set(Slot(cell: cell, key: .a)) { $0.cells[cell].a = value }
  }

  /// `willChangeValue(for: \.a)`, two writes, `didChangeValue(for: \.a)`.
  func setAByHand(_ value: Int, on cell: Int) {
    set(Slot(cell: cell, key: .a), manual: true) { $0.cells[cell].a = value }
  }

  func setLink(_ link: Int?, on cell: Int) {
    set(Slot(cell: cell, key: .link)) { $0.cells[cell].link = link }
  }

  /// An array change of `cell`'s items at `positions`: `removed` elements
  /// go, `inserted` ones arrive; one notification of `kind`.
  func changeItems(
    of cell: Int,
    kind: KeyValueChange,
    at positions: Range<Int>,
    inserting inserted: [Int]
  ) {
    let replaced = kind == .insertion ? positions.lowerBound..<positions.lowerBound : positions
    let removed = "\(Array(cells[cell].items[replaced]))"
    let old: (KeyValueObservingOptions) -> String? = { $0.contains(.old) && kind != .insertion ? removed : nil }
    change(
      Slot(cell: cell, key: .items),
      prior: { registration, _ in
        Note(kind: kind, isPrior: true, old: old(registration.options), indexes: [positions])
      },
      did: { registration, _, _ in
        Note(
          kind: kind,
          old: old(registration.options),
          new: registration.options.contains(.new) && kind != .removal ? "\(inserted)" : nil,
          indexes: [positions]
        )
      },
      mutate: { $0.cells[cell].items.replaceSubrange(replaced, with: inserted) }
    )
  }

  /// A set mutation of `cell`'s ids — by the proxy or by hand (`manual`) —
  /// with `objects`: one notification without indexes, of the kind and
  /// with the elements Apple's rules give (union: an insertion of the
  /// objects not there; minus: a removal of the objects that were;
  /// intersect: a removal of the elements not among the objects; set: a
  /// replacement, old the elements removed, new those added).
  func changeIDs(of cell: Int, _ mutation: KeyValueSetMutation, using objects: Set<Int>, manual: Bool = false) {
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
    let old: (KeyValueObservingOptions) -> String? = {
      $0.contains(.old) && kind != .insertion ? "set\(dropped.sorted())" : nil
    }
    change(
      Slot(cell: cell, key: .ids),
      manual: manual,
      prior: { registration, _ in Note(kind: kind, isPrior: true, old: old(registration.options)) },
      did: { registration, _, _ in
        Note(
          kind: kind,
          old: old(registration.options),
          new: registration.options.contains(.new) && kind != .removal ? "set\(added.sorted())" : nil
        )
      },
      mutate: { $0.cells[cell].ids = after }
    )
  }
}

extension ModelKey {
  /// The stored key a registration of this key observes itself; `nil` for
  /// a derived one.
  var storedKey: ReferenceModel.Slot.Key? {
    switch self {
    case .a: .a
    case .b: .b
    case .items: .items
    case .ids: .ids
    case .total, .linkA: nil
    }
  }
}
