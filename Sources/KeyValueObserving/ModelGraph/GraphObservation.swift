/// The observation of a model graph (see
/// ``KeyValueObservable/observeGraph(options:isolation:fileID:line:changeHandler:)``):
/// the objects reachable from a root through keys that hold
/// `@KeyValueObservable` objects, each with one registration that hears
/// every key (``GraphNodeRegistration``).
///
/// Membership is counted: each object holds how many links of the graph's
/// objects lead to it (the root one more). A change of a link adds the
/// objects it brings and takes out the ones it drops, read from the change
/// record itself; an object whose count reaches zero leaves, and so do the
/// objects only it led to. A count that drops but stays above zero may be
/// a cycle cut off from the root, or a link back to a parent: then the
/// graph walks again from the root, which also sets every count right.
///
/// Membership is under one lock of the graph's own; user code never runs
/// under it: values read, registrations taken out and lists a storage let
/// go of are collected and released after it, and the handler is called
/// after it. A change of a key that holds no objects takes no lock: its
/// registration's class holds the handler (``GraphClass/handler``).
///
/// Its token owns it (see ``KeyValueObservation``); its nodes'
/// registrations hold it, through their classes, until they are taken out.
final class GraphObservation: DerivedObservationBase, @unchecked Sendable {
  // @unchecked Sendable: `graphState` is behind its lock; the rest is
  // immutable or weak.

  private let graphState: LockedState<State>
  /// The options the handler asked for.
  let requested: KeyValueObservingOptions
  /// What each node's registration asks for: both values always, which
  /// say which objects a link brings and drops; `.prior` if asked.
  private let nodeOptions: KeyValueObservingOptions
  nonisolated(unsafe) private weak var root: AnyObject?
  private let rootID: ObjectIdentifier

  init(
    root: AnyObject,
    options: KeyValueObservingOptions,
    site: RegistrationSite,
    handler: GraphHandler
  ) {
    requested = options
    nodeOptions = KeyValueObservingOptions([.old, .new]).union(options.intersection(.prior))
    self.root = root
    rootID = ObjectIdentifier(root)
    graphState = LockedState(State(handler: handler), ownsCacheLines: false)
    super.init(options: options, slot: Self.keyPathSlot)
    self.site = site
  }

  override var observerDescription: String { "model graph (observeGraph)" }

  /// How many objects the graph holds now.
  var objectCount: Int { graphState.withLock { $0.nodes.count } }

  // MARK: Starting and ending

  /// Walks the graph from the root and files a registration on each of
  /// its objects; then sends `.initial` notifications, if asked.
  func start(from root: AnyObject) {
    var work = Work()
    let handler = graphState.withLock { state -> GraphHandler? in
      link([root], from: nil, in: &state, &work)
      return state.handler
    }
    let arrived = work.arrived
    work.finish()
    guard requested.contains(.initial), let handler else { return }
    for object in arrived {
      guard let graphClass = graphState.withLock({ $0.classes[ObjectIdentifier(type(of: object))] }) else { continue }
      for slot in graphClass.keys.indices {
        let value = graphClass.storages[slot]?.erasedValue(of: object)
        withUnsafePointer(to: value) { value in
          handler.deliver(
            object, slot: slot, in: graphClass,
            kind: .setting, oldValue: nil, newValue: requested.contains(.new) ? value : nil, positions: nil, isPrior: false
          )
        }
      }
    }
  }

  /// The token was invalidated or released, or the root was freed: every
  /// registration is taken out and the handler let go of, after the lock.
  override func didEnd() {
    var released: [AnyObject] = []
    let ended: State = graphState.withLock { state in
      for node in state.nodes.values {
        node.storage.remove(.passUnretained(node), releasingInto: &released)
      }
      // Moved out, so that nothing is released under the lock.
      var ended = State(handler: nil)
      swap(&ended, &state)
      return ended
    }
    _ = (ended, released)
  }

  // MARK: Changes

  /// A key of `object` changed, as `registration` heard: the graph
  /// follows a link's change, then the handler hears it, with the values
  /// it asked for.
  ///
  /// A link's change is followed only while `registration` is the
  /// object's node. Another thread may have taken the object out of the
  /// graph since the change was made: that removal read the object's links
  /// as they were then, this change included, so following it too would
  /// count its objects twice (bringing in an object nothing in the graph
  /// leads to, or dropping one a sibling still links). The handler still
  /// hears the change, made while the object was in the graph.
  @inline(__always)
  static func changed(
    _ object: AnyObject,
    slot: Int,
    in graphClass: GraphClass,
    heardBy registration: GraphNodeRegistration,
    equalSetting: Bool = false,
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>,
    newValue: UnsafePointer<Any?>,
    positions: IndexRanges?,
    isPrior: Bool
  ) {
    // Ended asked first: `end()` sets the flag before it clears the
    // token, so a change made after any `invalidate()` returned sees it,
    // also while another thread's `end()` has not taken the nodes out.
    let graph = graphClass.graph
    let (isEnded, requested) = graph._withUnsafeGuaranteedRef { ($0.isEnded, $0.requested) }
    guard !isEnded,
      isPrior || graphClass.shape(at: slot) == .none
        || graph._withUnsafeGuaranteedRef({
          $0.follow(kind, oldValue: oldValue.copiedBox, newValue: newValue.copiedBox, at: slot, of: object, in: graphClass, heardBy: registration)
        }),
      !equalSetting
    else { return }
    // The class's handler, read without the lock: the registration that
    // heard the change holds its class, and was live when the change
    // started, so the graph had not ended then.
    graphClass.handler.deliver(
      object, slot: slot, in: graphClass,
      kind: kind,
      oldValue: requested.contains(.old) ? oldValue : nil,
      newValue: requested.contains(.new) ? newValue : nil,
      positions: positions,
      isPrior: isPrior
    )
  }

  /// Follows the change of a link under the graph's lock: `false` once the
  /// graph ended. Called only for a link's change: a key that holds no
  /// objects takes no lock and no call.
  private func follow(
    _ kind: KeyValueChange,
    oldValue: borrowing Any?,
    newValue: borrowing Any?,
    at slot: Int,
    of object: AnyObject,
    in graphClass: GraphClass,
    heardBy registration: GraphNodeRegistration
  ) -> Bool {
    var work = Work()
    graphState.lock()
    let live = graphState.state.pointee.handler != nil
    if live, graphState.state.pointee.nodes[registration.objectID] === registration {
      follow(kind, oldValue: oldValue, newValue: newValue, at: slot, of: object, in: graphClass, &graphState.state.pointee, &work)
    }
    graphState.unlock()
    work.finish()
    return live
  }

  /// Adds the objects a change of `kind` brings to the link at `slot` of
  /// `object`, then takes out the ones it drops (in that order, so that an
  /// object moved within the graph never leaves it).
  private func follow(
    _ kind: KeyValueChange,
    oldValue: borrowing Any?,
    newValue: borrowing Any?,
    at slot: Int,
    of object: AnyObject,
    in graphClass: GraphClass,
    _ state: inout State,
    _ work: inout Work
  ) {
    let edge = requested.contains(.deallocation) && graphClass.shapes[slot] == .toOne ? (holder: object, slot: slot) : nil
    var brought: [AnyObject] = []
    var dropped: [AnyObject] = []
    switch kind {
    case .setting, .replacement:
      if let new = copy newValue { graphObjects(in: new, into: &brought) }
      if let old = copy oldValue { graphObjects(in: old, into: &dropped) }
    case .insertion:
      if let new = copy newValue { graphObjects(in: new, into: &brought) }
    case .removal:
      if let old = copy oldValue { graphObjects(in: old, into: &dropped) }
    }
    link(brought, from: edge, in: &state, &work)
    unlink(dropped, from: edge, in: &state, &work)
    work.kept.append(brought)
    work.kept.append(dropped)
    if work.mayHaveCutCycle { recount(in: &state, &work) }
  }

  // MARK: Membership

  /// One more link to each of `objects`, from `edge` (`nil`: the root's
  /// own): objects new to the graph are filed, and the objects their links
  /// hold are linked in turn.
  private func link(_ objects: [AnyObject], from edge: (holder: AnyObject, slot: Int)?, in state: inout State, _ work: inout Work) {
    var pending = objects.map { ($0, edge) }
    while let (object, edge) = pending.popLast() {
      let id = ObjectIdentifier(object)
      if state.nodes[id] != nil {
        state.nodes[id]!.incoming += 1
        if let edge { watch(object, from: edge, in: &state) }
        continue
      }
      guard let graphClass = file(object, in: &state, &work) else { continue }
      state.nodes[id]!.incoming = 1
      if let edge { watch(object, from: edge, in: &state) }
      for slot in graphClass.linkSlots {
        let watchedEdge = requested.contains(.deallocation) && graphClass.shapes[slot] == .toOne ? (holder: object, slot: slot) : nil
        for target in graphClass.objects(at: slot, of: object, keeping: &work.kept) {
          pending.append((target, watchedEdge))
        }
      }
    }
  }

  /// Files a registration on `object`, new to the graph, with a count of
  /// zero; returns its class, or `nil` when it cannot be observed: not
  /// `@KeyValueObservable` (reported once per class), or deinitialising.
  private func file(_ object: AnyObject, in state: inout State, _ work: inout Work) -> GraphClass? {
    let typeID = ObjectIdentifier(type(of: object))
    guard let observable = object as? any KeyValueObservable else {
      if state.reportedClasses.insert(typeID).inserted { work.unobservableClasses.append(type(of: object)) }
      return nil
    }
    guard let handler = state.handler else { return nil }
    let graphClass = state.classes[typeID] ?? GraphClass(graph: self, handler: handler, object: observable)
    state.classes[typeID] = graphClass
    let storage = observable._$kvoStorage()
    let node = handler.dropsEqualSettings ? EqualSettingDroppingNode.self : GraphNodeRegistration.self
    let registration = node.init(options: nodeOptions, object: ObjectIdentifier(object), storage: storage, graphClass: graphClass)
    registration.site = site
    guard storage.add(registration, releasingInto: &work.released) else { return nil }
    state.nodes[ObjectIdentifier(object)] = registration
    work.arrived.append(object)
    return graphClass
  }

  /// One link fewer to each of `objects`: an object no link leads to any
  /// more leaves, and its links are taken out in turn.
  private func unlink(_ objects: [AnyObject], from edge: (holder: AnyObject, slot: Int)?, in state: inout State, _ work: inout Work) {
    var pending = objects.map { ($0, edge) }
    while let (object, edge) = pending.popLast() {
      let id = ObjectIdentifier(object)
      if let edge { unwatch(object, from: edge, in: &state) }
      guard let node = state.nodes[id] else { continue }
      guard node.incoming <= 1 else {
        state.nodes[id]!.incoming -= 1
        work.mayHaveCutCycle = true
        continue
      }
      leave(id, node, in: &state, &work)
      let graphClass = node.graphClass
      for slot in graphClass.linkSlots {
        let watchedEdge = requested.contains(.deallocation) && graphClass.shapes[slot] == .toOne ? (holder: object, slot: slot) : nil
        for target in graphClass.objects(at: slot, of: object, keeping: &work.kept) {
          pending.append((target, watchedEdge))
        }
      }
    }
  }

  /// Takes `node` out of the graph and its registration out of its storage.
  private func leave(_ id: ObjectIdentifier, _ node: GraphNodeRegistration, in state: inout State, _ work: inout Work) {
    state.nodes[id] = nil
    node.storage.remove(.passUnretained(node), releasingInto: &work.released)
    work.released.append(node)
  }

  /// Walks the graph again from the root, counting every link: objects no
  /// longer reached leave, the counts are set right, and the to-one links
  /// watched for `.deallocation` are listed again.
  private func recount(in state: inout State, _ work: inout Work) {
    work.mayHaveCutCycle = false
    guard let root else { return }
    work.kept.append(root)
    var counts: [ObjectIdentifier: Int] = [rootID: 1]
    var watched: [ObjectIdentifier: [WatchedLink]] = [:]
    var pending: [AnyObject] = [root]
    while let object = pending.popLast() {
      guard let graphClass = state.nodes[ObjectIdentifier(object)]?.graphClass else { continue }
      for slot in graphClass.linkSlots {
        for target in graphClass.objects(at: slot, of: object, keeping: &work.kept) {
          let id = ObjectIdentifier(target)
          if requested.contains(.deallocation), graphClass.shapes[slot] == .toOne {
            watched[id, default: []].append(WatchedLink(holder: object, slot: slot))
          }
          if let count = counts[id] {
            counts[id] = count + 1
            continue
          }
          counts[id] = 1
          // An object reached that the graph had missed is filed now.
          if state.nodes[id] != nil || file(target, in: &state, &work) != nil {
            pending.append(target)
          }
        }
      }
    }
    for (id, node) in state.nodes {
      if let count = counts[id] {
        node.incoming = count
      } else {
        leave(id, node, in: &state, &work)
      }
    }
    state.watched = watched
  }

  // MARK: Freed objects

  /// The object of `registration` deinitialised: it leaves the graph, the
  /// graph is counted again, and with `.deallocation` each `weak` link to
  /// it that now reads `nil` is a change of its holder. The root's end
  /// ends the graph.
  func nodeFreed(_ registration: GraphNodeRegistration) {
    var work = Work()
    let (handler, links, isRoot) = graphState.withLock {
      state -> (GraphHandler?, [WatchedLink], Bool) in
      let id = registration.objectID
      guard let handler = state.handler, state.nodes[id] === registration else { return (nil, [], false) }
      state.nodes[id] = nil
      work.released.append(registration)
      guard id != rootID else { return (handler, [], true) }
      let links = state.watched.removeValue(forKey: id) ?? []
      recount(in: &state, &work)
      return (handler, links, false)
    }
    work.finish()
    if isRoot { return end() }
    guard let handler, !isEnded else { return }
    for link in links {
      guard let holder = link.holder,
        let graphClass = graphState.withLock({ state -> GraphClass? in
          guard state.nodes[ObjectIdentifier(holder)] != nil else { return nil }
          return state.classes[ObjectIdentifier(type(of: holder))]
        }),
        let value = graphClass.storages[link.slot]?.erasedValue(of: holder),
        (value as? any OptionalValue)?.wrappedValue == nil
      else { continue }
      withUnsafePointer(to: Optional(value)) { value in
        handler.deliver(
          holder, slot: link.slot, in: graphClass,
          kind: .setting, oldValue: nil, newValue: requested.contains(.new) ? value : nil, positions: nil, isPrior: false
        )
      }
    }
  }

  /// Lists a to-one link from `edge` to `object`, for `.deallocation`.
  private func watch(_ object: AnyObject, from edge: (holder: AnyObject, slot: Int), in state: inout State) {
    state.watched[ObjectIdentifier(object), default: []].append(WatchedLink(holder: edge.holder, slot: edge.slot))
  }

  /// Takes one listed to-one link from `edge` to `object` out.
  private func unwatch(_ object: AnyObject, from edge: (holder: AnyObject, slot: Int), in state: inout State) {
    let id = ObjectIdentifier(object)
    guard let index = state.watched[id]?.firstIndex(where: { $0.holder === edge.holder && $0.slot == edge.slot }) else { return }
    state.watched[id]!.remove(at: index)
    if state.watched[id]!.isEmpty { state.watched[id] = nil }
  }
}
