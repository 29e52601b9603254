/// The breadth-first walk that makes a ``KeyValueObservationGraph``: from
/// each object, its live registrations, then the objects they lead to.
///
/// Objects are known by their observation storage, so that an object is one
/// node whether the walk meets it observed or observing. Every object and
/// storage met is kept alive until the walk ends, so that no identity is
/// reused meanwhile.
struct ObservationGraphWalk {
  typealias Node = KeyValueObservationGraph.Node
  typealias Edge = KeyValueObservationGraph.Edge

  private(set) var nodes: [Node] = []
  private(set) var edges: [Edge] = []

  private let depth: Int
  /// A node's number by the identity of what it stands for.
  private var numbers: [ObjectIdentifier: Int] = [:]
  /// The storages still to walk, with their distance from the start.
  private var pending: [(storage: _KeyValueObservationStorage, distance: Int)] = []
  private var nextPending = 0
  private var queued: Set<ObjectIdentifier> = []
  private var kept: [AnyObject] = []

  init(depth: Int) {
    self.depth = depth
  }

  /// Starts at `object`: a node even when nothing observes it.
  mutating func start(at object: any KeyValueObservable) {
    guard let storage = object._$kvoObservedStorage?.takeUnretainedValue() else {
      _ = number(of: object, kind: .object, label: "\(type(of: object))")
      return
    }
    _ = objectNode(storage)
    queue(storage, distance: 0)
  }

  /// Walks every queued storage, and what each leads to.
  mutating func run() {
    while nextPending < pending.count {
      let (storage, distance) = pending[nextPending]
      nextPending += 1
      walk(storage, distance: distance)
    }
  }

  private mutating func walk(_ storage: _KeyValueObservationStorage, distance: Int) {
    let observed = objectNode(storage)
    for registration in storage.liveRegistrations() {
      if let dependency = registration as? DependencyRegistration {
        guard let dependent = dependency.observer.observedStorage else {
          // A tracked closure: drawn as observing each key it reads, and
          // the walk goes on to the other objects it reads.
          let closure = number(of: dependency.observer, kind: .anonymous, label: dependency.observer.observerDescription)
          for other in dependency.observer.currentDependencies() {
            queue(other.storage, distance: distance + 1)
          }
          edges.append(
            Edge(
              from: closure,
              to: observed, key: registration.keyName(on: storage.objectType), options: [], kind: .token,
              dependencies: [], site: dependency.observer.site.description
            )
          )
          continue
        }
        // Drawn from the object whose key depends on this one.
        queue(dependent, distance: distance + 1)
        continue
      }
      guard let found = observerNode(of: registration, distance: distance) else { continue }
      let (observer, kind) = found
      let key = registration.keyName(on: storage.objectType)
      edges.append(
        Edge(
          from: observer, to: observed, key: key, options: registration.options, kind: kind,
          dependencies: registration.dependencyDescriptions, site: registration.site.description
        )
      )
      if let observation = registration as? DerivedObservationBase {
        addDependencies(of: observation, from: observed, rootStorage: storage, distance: distance)
      }
    }
  }

  /// A dependency edge from the observed object to each other object the
  /// derived key reads now.
  private mutating func addDependencies(
    of observation: DerivedObservationBase,
    from observed: Int,
    rootStorage: _KeyValueObservationStorage,
    distance: Int
  ) {
    let dependent = observation.keyPathDescription
    for dependency in observation.currentDependencies() where dependency.storage !== rootStorage {
      edges.append(
        Edge(
          from: observed, to: objectNode(dependency.storage), key: dependency.keyName, options: [], kind: .dependency,
          dependencies: [dependent], site: nil
        )
      )
      queue(dependency.storage, distance: distance + 1)
    }
  }

  /// Who a registration observes for, as a node, and the kind of its edge;
  /// `nil` for a classic observer that was freed.
  private mutating func observerNode(
    of registration: _KeyValueRegistration,
    distance: Int
  ) -> (Int, KeyValueObservationGraph.EdgeKind)? {
    switch registration.observerSource {
    case .closure, .queue, .mainActor, .trackedClosure:
      return (anonymousNode(registration), .token)
    case .changesSequence, .valuesSequence:
      return (anonymousNode(registration), .stream)
    case .publisher:
      return (anonymousNode(registration), .publisher)
    case .controller(let controller):
      return (controllerNode(controller, distance: distance), .controller)
    case .binding(let binding):
      return (bindingNode(binding, distance: distance), .token)
    case .classic(let target):
      if let controller = target.controller {
        return (controllerNode(controller, distance: distance), .controller)
      }
      guard let observer = target.liveObserver else { return nil }
      if let observable = observer as? any KeyValueObservable,
        let storage = observable._$kvoObservedStorage?.takeUnretainedValue()
      {
        queue(storage, distance: distance + 1)
        return (objectNode(storage), .classic)
      }
      return (number(of: observer, kind: .observer, label: "\(type(of: observer))"), .classic)
    }
  }

  /// One node per registration with no observer of its own.
  private mutating func anonymousNode(_ registration: _KeyValueRegistration) -> Int {
    number(of: registration, kind: .anonymous, label: registration.observerDescription)
  }

  /// The controller's node; the objects it observes are walked next.
  private mutating func controllerNode(_ controller: ControllerIdentity, distance: Int) -> Int {
    if let known = numbers[ObjectIdentifier(controller)] { return known }
    let made = number(of: controller, kind: .controller, label: controller.description)
    for object in controller.observedObjects() {
      guard let storage = (object as? any KeyValueObservable)?._$kvoObservedStorage?.takeUnretainedValue() else {
        continue
      }
      kept.append(object)
      queue(storage, distance: distance + 1)
    }
    return made
  }

  /// The binding's node; the other object it binds is walked next.
  private mutating func bindingNode(_ binding: any BindingIdentity, distance: Int) -> Int {
    if let known = numbers[ObjectIdentifier(binding)] { return known }
    let made = number(of: binding, kind: .anonymous, label: binding.description)
    for storage in binding.boundStorages() {
      queue(storage, distance: distance + 1)
    }
    return made
  }

  private mutating func objectNode(_ storage: _KeyValueObservationStorage) -> Int {
    number(of: storage, kind: .object, label: "\(storage.objectType)")
  }

  /// The number of the node for `subject`, made the first time it is met.
  private mutating func number(
    of subject: AnyObject,
    kind: KeyValueObservationGraph.NodeKind,
    label: @autoclosure () -> String
  ) -> Int {
    let identity = ObjectIdentifier(subject)
    if let known = numbers[identity] { return known }
    let made = nodes.count + 1
    nodes.append(Node(id: made, kind: kind, label: "\(label()) #\(made)"))
    numbers[identity] = made
    kept.append(subject)
    return made
  }

  /// Queues `storage` to be walked, once, when it is near enough.
  private mutating func queue(_ storage: _KeyValueObservationStorage, distance: Int) {
    guard distance <= depth, queued.insert(ObjectIdentifier(storage)).inserted else { return }
    kept.append(storage)
    pending.append((storage, distance))
  }
}
