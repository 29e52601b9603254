/// What a dependency registration and an anchor forward to: the will and
/// did of a change that affects a derived key, and the end of the
/// observation.
protocol DerivedKeyObserver: AnyObject, Sendable {
  /// A dependency is about to change.
  func dependencyWillChange()
  /// A dependency changed.
  func dependencyDidChange()
  /// The observation ended: invalidated, or the observed object deinitialised.
  func end()
  /// The observed key path, for ``KeyValueObservable/observationInfo``.
  var keyPathDescription: String { get }
}

/// The observation of a key path that is not one stored property of the
/// observed object: a computed property, a chain through other observable
/// objects, or a property with declared dependencies.
///
/// It registers with every (object, key) the key path's value depends on
/// (see ``resolveDependencies(of:on:)``), asking each for a will and a did.
/// At the outermost will on a thread it reads the old value; at the matching
/// did it reads the key path again, tracking the reads, re-registers with
/// what the value depends on now (a branch taken, a link replaced), and
/// notifies once. Nested wills on one thread — a dependency changed while
/// another changes — only deepen the change.
///
/// Owned by its anchor in the observed object's storage (so the object's
/// deinit ends it) and by its dependency registrations; it holds the
/// observed object weakly.
final class DerivedObservation<Root: KeyValueObservable, Value>: DerivedKeyObserver, @unchecked Sendable {
  // @unchecked Sendable: `state` is only touched under `lock`; `root` is a
  // weak reference the runtime reads and clears atomically; the rest is
  // immutable. The handler runs on the thread that made the change, as for
  // stored keys.

  private weak var root: Root?
  let keyPath: KeyPath<Root, Value>
  let options: KeyValueObservingOptions
  private let handler: (Root, KeyValueObservedChange<Value>) -> Void
  private let lock = RegistrarLock()
  @exclusivity(unchecked) nonisolated(unsafe) private var state = State()

  /// The registration that files this observation under its key path in the
  /// root's storage. It owns `self`; weak, because a delivery already under
  /// way may reach `self` after the anchor is gone.
  private weak var anchor: DerivedAnchor?

  private struct State {
    /// The registrations with what the value depends on, by dependency.
    var dependencies: [Dependency.Key: Registered] = [:]
    /// Changes under way, one per thread (few at once: a list).
    var pending: [Pending] = []
    /// Numbers the reads of the value, so that a slower read on one thread
    /// cannot replace the dependencies a later read on another installed.
    var nextRead = 0
    var appliedRead = -1
    var ended = false
  }

  private struct Registered {
    let storage: _KeyValueObservationStorage
    let registration: Unmanaged<_KeyValueRegistration>
  }

  private struct Pending {
    let thread: UInt
    var depth: Int
    var oldValue: Value?
  }

  init(
    root: Root,
    keyPath: KeyPath<Root, Value>,
    options: KeyValueObservingOptions,
    handler: @escaping (Root, KeyValueObservedChange<Value>) -> Void
  ) {
    self.root = root
    self.keyPath = keyPath
    self.options = options
    self.handler = handler
  }

  var keyPathDescription: String { "\(keyPath)" }

  /// Files the observation in `storage` (the root's) and registers with what
  /// the value depends on; returns the anchor, for the token, and the value.
  func start(in storage: _KeyValueObservationStorage, root: Root) -> (anchor: DerivedAnchor, value: Value) {
    let anchor = DerivedAnchor(observing: self, keyPath: keyPath, options: options)
    self.anchor = anchor
    // `root` is alive, so its storage is open and the addition succeeds.
    _ = storage.add(anchor)
    let value = refresh(root)
    if lock.withLock({ state.dependencies.isEmpty }) {
      reportProblem(
        "observe(\(keyPath)): reading it touches no property of a @KeyValueObservable class, "
          + "so only willChangeValue/didChangeValue(for:) on it will notify"
      )
    }
    return (anchor, value)
  }

  /// Reads the value with tracking and registers with what it depends on now.
  private func refresh(_ root: Root) -> Value {
    let read = lock.withLock {
      defer { state.nextRead += 1 }
      return state.nextRead
    }
    let (value, dependencies) = resolveDependencies(of: keyPath, on: root)
    lock.withLock {
      guard !state.ended, read > state.appliedRead else { return }
      state.appliedRead = read
      var next: [Dependency.Key: Registered] = [:]
      for dependency in dependencies {
        let key = dependency.key
        guard next[key] == nil else { continue }
        if let registered = state.dependencies.removeValue(forKey: key) {
          next[key] = registered
          continue
        }
        let registration = DependencyRegistration(forwardingTo: self, slot: dependency.slot)
        if dependency.storage.add(registration) {
          next[key] = Registered(storage: dependency.storage, registration: .passUnretained(registration))
        }
      }
      // Storage locks are taken inside this one, never the other way round:
      // the storages call out only after releasing their own lock.
      for stale in state.dependencies.values {
        stale.storage.remove(stale.registration)
      }
      state.dependencies = next
    }
    return value
  }

  func dependencyWillChange() {
    guard let root else { return }
    let thread = currentThreadIdentity()
    let nested = lock.withLock {
      if let index = state.pending.firstIndex(where: { $0.thread == thread }) {
        state.pending[index].depth += 1
        return true
      }
      state.pending.append(Pending(thread: thread, depth: 1, oldValue: nil))
      return false
    }
    guard !nested else { return }
    guard options.contains(.old) || options.contains(.prior) else { return }
    let oldValue = root[keyPath: keyPath]
    lock.withLock {
      if let index = state.pending.firstIndex(where: { $0.thread == thread }) {
        state.pending[index].oldValue = oldValue
      }
    }
    guard options.contains(.prior), anchor?.isLive == true else { return }
    handler(
      root,
      KeyValueObservedChange(
        kind: .setting,
        newValue: nil,
        oldValue: options.contains(.old) ? oldValue : nil,
        isPrior: true
      )
    )
  }

  func dependencyDidChange() {
    guard let root else { return }
    let thread = currentThreadIdentity()
    // A did with no will (an observation added in between) notifies without
    // an old value.
    let outcome: (finished: Bool, oldValue: Value?) = lock.withLock {
      guard let index = state.pending.firstIndex(where: { $0.thread == thread }) else { return (true, nil) }
      state.pending[index].depth -= 1
      guard state.pending[index].depth == 0 else { return (false, nil) }
      return (true, state.pending.remove(at: index).oldValue)
    }
    guard outcome.finished, !lock.withLock({ state.ended }) else { return }
    let newValue = refresh(root)
    guard anchor?.isLive == true else { return }
    handler(
      root,
      KeyValueObservedChange(
        kind: .setting,
        newValue: options.contains(.new) ? newValue : nil,
        oldValue: options.contains(.old) ? outcome.oldValue : nil,
        isPrior: false
      )
    )
  }

  func end() {
    let registered: [Registered] = lock.withLock {
      guard !state.ended else { return [] }
      state.ended = true
      state.pending = []
      defer { state.dependencies = [:] }
      return Array(state.dependencies.values)
    }
    for dependency in registered {
      dependency.storage.remove(dependency.registration)
    }
  }
}
