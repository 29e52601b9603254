/// A ``DerivedObservationBase`` of a value read from a `Root` — a key path,
/// or a string key path walked key by key — calling `handler` with values of
/// the value's own type.
///
/// Its typed work — the change path of every derived observation (see
/// ``DerivedValueObservation``) — is inlinable and runs through
/// ``Changes``, a closure made where the observation is made: made in a
/// caller's specialised code (`observe` on a concrete class), it runs
/// specialised, with no run-time type lookups.
///
/// It holds the observed object without keeping it alive, and uses it only
/// while it lives (``UnownedReference``): a notification may reach it from
/// another object's change while the observed object is being freed.
@usableFromInline
final class DerivedObservation<Root: KeyValueObservable, Value>: DerivedObservationBase, DerivedValueObservation,
  @unchecked Sendable
{
  // @unchecked Sendable: `root` is read through the runtime's atomic
  // reference counts; the rest is immutable or behind a lock. The handler
  // runs on the thread that made the change, as for stored keys.

  /// Reads the value, adding the keys whose declared dependencies count.
  @usableFromInline typealias Reader = (Root, inout [ReadKey]) -> Value

  /// The typed work of its changes (see ``DerivedValueObservation/changes()``).
  @usableFromInline typealias Changes = DerivedChanges<DerivedObservation>

  // The one-byte fields first.

  /// Whether there is a ``chainFinder``: a computed key's read never
  /// looks for a chain, nor calls out to find that it need not.
  @usableFromInline let mayBeChain: Bool
  /// Set when a dependency ends, until the next will checks what the
  /// value depends on now (see ``isDependency(_:)``, in
  /// DerivedObservation+StaleDependencies.swift).
  @usableFromInline let dependenciesMayBeStale = AtomicFlag(false)

  /// The observed object, without keeping it alive (see
  /// ``UnownedReference``).
  @usableFromInline let root: UnownedReference<Root>
  @usableFromInline let read: Reader
  @usableFromInline let handler: (Root, KeyValueObservedChange<Value>) -> Void
  /// Finds the chain of stored properties the observed key path is, from
  /// the root (see ``StoredChain``); `nil` for a key path that cannot be
  /// one (a computed property the class declares).
  private let chainFinder: ((Root) -> StoredChain<Value>?)?
  /// The observed key path read link by link, once found: looked for after
  /// each read with tracking that went further than every earlier look
  /// (``lookForChain(_:)``), so that a chain observed while a link was
  /// `nil`, which hid what lay beyond it, is found when the link is set.
  /// Retained; set once.
  @usableFromInline let foundChain = AtomicUInt(0)
  /// How many dependencies the read had at the furthest look for the chain.
  private let chainLookDepth = AtomicInt(0)
  private let changes: Changes
  /// Whether a read adds the value's own object, to hear it freed
  /// (`.deallocation`, on a value that may hold an object).
  let tracksValueObject: Bool
  /// The value last read, for the old value of a change a freed object
  /// makes; only with `.deallocation` and `.old`.
  @usableFromInline let keptValue: KeptValue<Value>?
  /// Who observes, and what to do when the observation ends.
  private let hooks: ObservationHooks
  /// The key path it is filed under, as every form of the same property
  /// files it (see ``KeyValueObservable/_$kvoFilingKeyPath(_:)``).
  let filedKeyPath: AnyKeyPath
  /// The observed object's storage, which it is filed in.
  let rootStorage: _KeyValueObservationStorage

  /// An observation of `keyPath`.
  convenience init(
    root: Root,
    storage: _KeyValueObservationStorage,
    keyPath: KeyPath<Root, Value>,
    options: KeyValueObservingOptions,
    hooks: ObservationHooks = ObservationHooks(),
    changes: Changes,
    handler: @escaping (Root, KeyValueObservedChange<Value>) -> Void
  ) {
    let declares = storage.declaresDependencies
    // A computed property's own getter, where the class's table has it: a
    // direct call, where a key path read runs a generic projection. The
    // table types it `@MainActor` so that it compiles whatever the
    // property's isolation (see `KeyValueObservable._$kvoGetter(for:)`); it
    // is called as the key path would be read, on the thread that reads.
    let getter = (Root._$kvoGetter(for: keyPath) as? @MainActor (Root) -> Value).map {
      unsafeBitCast($0, to: ((Root) -> Value).self)
    }
    // Not optional: an optional unwrapped on each read is a copy of the
    // function, retained and released.
    let get: (Root) -> Value = getter ?? { $0[keyPath: keyPath] }
    var read: Reader
    if getter == nil, let leaf = ComputedLeaf(keyPath) {
      // A chain that ends in a computed property over storage nothing
      // tracks: the property is named on the object the links hold, at
      // each read, for its announcements.
      read = { root, keys in
        if declares { keys.append(ReadKey(object: root, keyPath: keyPath, isObservedKey: true)) }
        if let key = leaf.readKey(from: root) { keys.append(key) }
        return get(root)
      }
    } else {
      read = { root, keys in
        if declares { keys.append(ReadKey(object: root, keyPath: keyPath, isObservedKey: true)) }
        return get(root)
      }
    }
    if options.contains(.deallocation), ObjectLifetime.mayHoldObject(Value.self) {
      // The value's own object is heard freed too (as `tracksValueObject`
      // says for a chain's read).
      let readValue = read
      read = { root, keys in
        let value = readValue(root, &keys)
        ObjectLifetime.track(value, in: &keys)
        return value
      }
    }
    self.init(
      root: root,
      storage: storage,
      filedUnder: keyPath,
      read: read,
      // A computed property the class declares is not a chain: not read
      // again to find out.
      chainFinder: getter == nil ? { StoredChain(keyPath, of: $0) } : nil,
      options: options,
      hooks: hooks,
      changes: changes,
      handler: handler
    )
  }

  /// An observation of what `read` reads, filed in the root's storage under
  /// `filedUnder` (manual changes of that key path reach it), with
  /// `hooks`, whose source also names the key when the key path does not
  /// (see ``DerivedObservationBase/keyPathDescription``).
  init(
    root: Root,
    storage: _KeyValueObservationStorage,
    filedUnder keyPath: AnyKeyPath,
    read: @escaping Reader,
    chainFinder: ((Root) -> StoredChain<Value>?)? = nil,
    options: KeyValueObservingOptions,
    hooks: ObservationHooks,
    changes: Changes,
    handler: @escaping (Root, KeyValueObservedChange<Value>) -> Void
  ) {
    self.root = UnownedReference(root)
    self.read = read
    self.chainFinder = chainFinder
    self.mayBeChain = chainFinder != nil
    self.handler = handler
    self.hooks = hooks
    self.changes = changes
    // Filed as every form of the same property files it, and announces it.
    self.filedKeyPath = Root._$kvoFilingKeyPath(keyPath)
    self.rootStorage = storage
    self.keptValue = options.isSuperset(of: [.deallocation, .old]) ? KeptValue(weakly: true) : nil
    self.tracksValueObject = options.contains(.deallocation) && ObjectLifetime.mayHoldObject(Value.self)
    super.init(options: options, slot: Self.keyPathSlot)
  }

  deinit {
    foundChain.loadObject(StoredChain<Value>.self, ordering: .acquiring)?.release()
  }

  /// Files the observation in the root's storage, as its own anchor (the
  /// registration its token names), and registers with what the value
  /// depends on; returns the value. A value that depends on nothing is
  /// reported, unless it is `constant` (a `let` observed by string, which
  /// is expected never to notify).
  func start(root: Root, constant: Bool = false, site: RegistrationSite) -> Value {
    self.site = site
    // `root` is alive, so its storage is open and the addition succeeds.
    _ = rootStorage.add(self)
    let value = refresh(root)
    keptValue?.keep(value)
    if dependencyCount == 0 && !constant {
      reportProblem(.unobservableKeyPath, Root.unobservableKeyMessage(keyPathDescription))
    }
    return value
  }

  /// Reads the value with tracking and registers with what it depends on
  /// now (see ``DerivedObservationBase/trackRead(_:_:)``). A chain whose
  /// links hold the objects they held is read link by link, untracked: its
  /// dependencies are as they were.
  @inlinable
  final func refresh(_ root: Root) -> Value {
    var value: Value? = nil
    guard mayBeChain, foundChain.load(ordering: .relaxed) != 0 else {
      // No chain to read link by link: the read is checked against the
      // dependencies as it runs.
      trackRead { keys in value = read(root, &keys) }
      if mayBeChain { lookForChain(root) }
      return value.unsafelyUnwrapped
    }
    let numbered = beginRead(wantsLast: true)
    if let expected = numbered.expected, let read = readChain(from: root, matching: expected) {
      // The chain holds the objects it held, up to the last link: it ends
      // where the last dependency is.
      if read.reachedLast, let last = numbered.last {
        rememberChainEnd(last)
      }
      return read.value
    }
    // The objects changed: the walk that found so reads the chain again,
    // reporting what it reads, unless an object on the way is of another
    // class; the key path's read would read the links outside their
    // storages' locks (see StoredChain.Link.readObject(_:from:)).
    trackRead(numbered) { keys in value = readChainRecording(from: root, into: &keys) ?? read(root, &keys) }
    return value.unsafelyUnwrapped
  }

  /// The value read link by link, reporting each key read to the tracking
  /// scope (see ``StoredChain/readRecording(from:)``), and the value's own
  /// object where the read would add it (`.deallocation`); `nil` when an
  /// object on the way is not of its link's class.
  @usableFromInline
  final func readChainRecording(from root: Root, into keys: inout [ReadKey]) -> Value? {
    guard let chain = foundChain.loadObject(StoredChain<Value>.self, ordering: .acquiring),
      let value = chain._withUnsafeGuaranteedRef({ $0.readRecording(from: root) })
    else { return nil }
    if tracksValueObject { ObjectLifetime.track(value, in: &keys) }
    return value
  }

  /// Reads the value without tracking.
  @inlinable
  final func currentValue(_ root: Root) -> Value {
    if let read = readChain(from: root, matching: nil) {
      return read.value
    }
    var keys: [ReadKey] = []
    return read(root, &keys)
  }

  /// The value read link by link, when the chain is found and holds (see
  /// ``StoredChain/read(from:matching:)``).
  @inlinable
  final func readChain(from root: Root, matching expected: RegisteredDependencies?) -> (value: Value, reachedLast: Bool)? {
    guard mayBeChain, let chain = foundChain.loadObject(StoredChain<Value>.self, ordering: .acquiring) else { return nil }
    return chain._withUnsafeGuaranteedRef { $0.read(from: root, matching: expected) }
  }

  /// Looks for the chain after a read with tracking, if that read went
  /// further than every earlier look: only a longer read can show links
  /// an earlier one could not reach. Two threads may look at once; the
  /// first chain kept is the one read.
  @usableFromInline
  final func lookForChain(_ root: Root) {
    guard let chainFinder else { return }
    let depth = dependencyCount
    guard chainLookDepth.max(depth, ordering: .relaxed).oldValue < depth, let chain = chainFinder(root) else { return }
    let retained = Unmanaged.passRetained(chain)
    if !foundChain.storeObjectIfNone(retained, ordering: .acquiringAndReleasing).exchanged {
      retained.release()
    }
  }

  // MARK: Where the chain ends

  /// The address of the registration with the last link's key of the
  /// observed chain, while the chain is known to end at its object: set
  /// by a read that walked the chain and found the objects the
  /// dependencies list; zero once any other dependency changes, or any
  /// dependency ends. A change of the last link's key on that object — the
  /// common change of an observed chain — then reads the value from the
  /// object the change is made on, without walking the links: the object
  /// is alive, as its change is under way.
  ///
  /// An address, not a reference: the registration's end forgets it
  /// before the registration goes. A read racing with another thread's
  /// re-registration may still leave the address of one that went, which
  /// a later registration could reuse: so the sender's object is checked
  /// to be of the last link's class, and the sender to observe its key,
  /// before the value is read from it.
  @usableFromInline let chainEnd = AtomicUInt(0)

  // Read and forgotten in DerivedObservation+ChainEnd.swift.

  /// Any dependency that ends — its object freed (a `weak` link whose
  /// object went, without a change), or no longer read — may leave the
  /// chain ending elsewhere, and the value depending on less than it is
  /// registered with.
  override func dependencyEnded(freed: DependencyRegistration?) {
    if mayBeChain { forgetChainEnd() }
    dependenciesMayBeStale.store(true, ordering: .releasing)
    if let freed, hearsDeallocation {
      changes.change(self, freed, nil, .freed)
    }
  }

  override func didEnd() {
    forgetChainEnd()
    hooks.ended?()
  }

  override var observerDescription: String {
    hooks.source.description(closure: "closure (\(Root.self), KeyValueObservedChange<\(Value.self)>)")
  }

  override var observerSource: ObserverSource { hooks.source }

  override var walksChain: Bool { mayBeChain }

  override var observedStorage: _KeyValueObservationStorage? { rootStorage }

  override var anchorKeyPath: AnyKeyPath? { filedKeyPath }

  override var keyPathDescription: String { description(of: filedKeyPath, on: rootStorage) }

  // MARK: The change path's requirements

  @inlinable
  var liveRoot: Root? { root.object }

  @inlinable @inline(__always)
  func deliver(_ change: KeyValueObservedChange<Value>, from root: Root) {
    handler(root, change)
  }

  @inlinable @inline(__always)
  func whenToRun() -> RunTime { .now }

  @inlinable
  func scheduleRun() {}

  // The typed will and did they run: DerivedValueObservation+Change.swift.

  override func dependencyWillChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    changes.change(self, sender, object, .will)
  }

  override func dependencyDidChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    changes.change(self, sender, object, .did)
  }
}
