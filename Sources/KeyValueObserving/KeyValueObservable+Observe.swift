extension KeyValueObservable {
  /// Observes the value `keyPath` names and calls `changeHandler` for each
  /// change, until the returned token is invalidated or released.
  ///
  /// Any key path works: a stored property, a computed property (its
  /// dependencies are found by running its getter, and found again after
  /// each change, so a getter that branches is followed), a chain through
  /// other observable objects (`\.address?.city`, re-wired when a link is
  /// replaced), and keys with dependencies declared through
  /// ``KeyValueObservingCustomization``. A chain is followed as far as its
  /// links are `@KeyValueObservable` classes.
  ///
  /// Notifications are synchronous: the handler runs on the thread that made
  /// the change, after the assignment, with no lock held, so it may observe,
  /// invalidate and assign freely. Every assignment notifies, also of an
  /// equal value. Several registrations on one key are called in the order
  /// they were made. For a key derived from others, old and new values are
  /// the key's own, read before and after the change; a change of one
  /// dependency made while another changes notifies once.
  ///
  /// ```swift
  /// let person = Person()
  /// let token = person.observe(\.age, options: [.initial, .old, .new]) { person, change in
  ///     print(change.oldValue as Any, change.newValue as Any)
  /// }
  /// // prints "nil Optional(0)" at once (.initial)
  /// person.age = 1  // prints "Optional(0) Optional(1)"
  ///
  /// let city = person.observe(\.address?.city, options: .new) { _, change in
  ///     print(change.newValue as Any)
  /// }
  /// person.address = Address(city: "Oslo")  // prints "Optional(Optional("Oslo"))"
  /// person.address?.city = "Bergen"         // prints "Optional(Optional("Bergen"))"
  /// ```
  ///
  /// The handler takes the isolation of the code that registers it, as any
  /// closure that is not `@Sendable` does: registered from the main actor,
  /// it may touch main-actor state, and it runs synchronously when the
  /// change is made there — which, for a `@MainActor` model, is every
  /// change made through its properties. In debug builds each call checks
  /// that it runs on that actor and stops with a message naming the class
  /// and the key when it does not (a change made from another thread, by
  /// string or through a reference the compiler could not check); release
  /// builds call it as they find it. To be called on the main actor
  /// whoever changes the value, use
  /// ``observeOnMainActor(_:options:fileID:line:changeHandler:)``, which hops.
  ///
  /// ```swift
  /// @MainActor final class Screen {
  ///     let model = Model()  // a @MainActor @KeyValueObservable class
  ///     var title = ""
  ///     var token: KeyValueObservation?
  ///     func start() {
  ///         token = model.observe(\.name, options: .new) { [unowned self] _, change in
  ///             title = change.newValue!  // main-actor state, no hop, no await
  ///         }
  ///     }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to observe, rooted at this object's type.
  ///   - options: Which values the changes carry and which extra
  ///     notifications are sent; see ``KeyValueObservingOptions``.
  ///   - isolation: The actor the handler is isolated to: the caller's,
  ///     which Swift passes for you.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph`` in a
  ///     debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  ///   - changeHandler: Called with the object and the change.
  /// - Returns: The token that keeps the registration alive.
  /// - Complexity: For a stored property, O(1) amortised whatever the number
  ///   of other registrations on the key. For any other key path, one read
  ///   of the key path, at registration and after each change.
  @inlinable
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> KeyValueObservation {
    let site = RegistrationSite(fileID: fileID, line: line)
    if let isolation = isolationCheckedInDebugBuilds(isolation) {
      return observe(
        keyPath, options: options, hooks: nil, site: site,
        changeHandler: Self.checking(changeHandler, runsOn: isolation, for: keyPath)
      )
    }
    return observe(keyPath, options: options, hooks: nil, site: site, changeHandler: changeHandler)
  }

  /// ``observe(_:options:isolation:fileID:line:changeHandler:)`` with
  /// `hooks`: what the registration says observes, and what to do when it
  /// ends; and `site`, where it was asked for. The controller, the async
  /// sequences and the delivery places register through it.
  @inlinable
  package func observe<Value>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions,
    hooks: ObservationHooks?,
    site: RegistrationSite,
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> KeyValueObservation {
    KeyValueObservation(register(keyPath, options: options, hooks: hooks, site: site, changeHandler: changeHandler))
  }

  /// The one registration path of typed observations: registers
  /// `changeHandler` for `keyPath`, sends the `.initial` notification, and
  /// returns what names the registration, for a token or for a caller that
  /// keeps it itself (the Combine module's subscriptions).
  @inlinable
  package func register<Value>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions,
    hooks: ObservationHooks?,
    site: RegistrationSite,
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> RegistrationHandle {
    // Made inside a tracked closure's run, the registration's reads (its
    // first value, its `.initial` handler) are its own, not the run's.
    let hidden = _KeyValueAccessTracking.suspendTracking()
    defer { _KeyValueAccessTracking.resumeTracking(hidden) }
    let storage = _$kvoStorage()
    let slot: Int
    if options.contains(.deallocation), ObjectLifetime.mayHoldObject(Value.self) {
      // A key that may hold an object it hears freed is derived (see
      // `ObjectLifetime`).
      return registerDerived(
        keyPath, in: storage, options: options, hooks: hooks ?? ObservationHooks(), site: site,
        changeHandler: changeHandler
      )
    } else if let remembered = storage.rememberedSlot(for: keyPath) {
      slot = remembered
    } else {
      guard let found = Self._$kvoSlot(for: keyPath), !storage.hasDeclaredDependencies(keyPath) else {
        return registerDerived(
          keyPath, in: storage, options: options, hooks: hooks ?? ObservationHooks(), site: site,
          changeHandler: changeHandler
        )
      }
      storage.rememberSlot(found, for: keyPath)
      slot = found
    }
    let registration: _KeyValueValueRegistration<Value>
    if let hooks {
      registration = hookedRegistration(options: options, slot: slot, hooks: hooks, handler: changeHandler)
    } else {
      registration = ClosureRegistration<Self, Value>(options: options, slot: slot, handler: changeHandler)
    }
    registration.site = site
    let handle = Unmanaged<_KeyValueRegistration>.passUnretained(registration)
    // The slot list takes this function's reference. `self` is alive, so its
    // storage is open and the addition succeeds; from then on the list keeps
    // the registration alive until the token removes it.
    guard storage.add(consume registration) else { return RegistrationHandle(storage: nil, registration: nil) }
    sendInitial(options: options, isLive: handle._withUnsafeGuaranteedRef { $0.isLive }, value: self[keyPath: keyPath]) {
      changeHandler(self, $0)
    }
    return RegistrationHandle(storage: consume storage, registration: handle)
  }

  /// `register` for a key path that is not one stored property without
  /// declared dependencies. Inlinable, so that the observation's typed work
  /// is specialised for the caller's types.
  @inlinable
  func registerDerived<Value>(
    _ keyPath: KeyPath<Self, Value>,
    in storage: _KeyValueObservationStorage,
    options: KeyValueObservingOptions,
    hooks: ObservationHooks = ObservationHooks(),
    site: RegistrationSite,
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> RegistrationHandle {
    registerDerived(
      keyPath, in: storage, options: options, hooks: hooks, site: site,
      changes: DerivedObservation<Self, Value>.changes(), changeHandler: changeHandler
    )
  }

  /// ``registerDerived(_:in:options:hooks:site:changeHandler:)`` with the
  /// observation's typed work made by the caller.
  @usableFromInline
  func registerDerived<Value>(
    _ keyPath: KeyPath<Self, Value>,
    in storage: _KeyValueObservationStorage,
    options: KeyValueObservingOptions,
    hooks: ObservationHooks,
    site: RegistrationSite,
    changes: DerivedObservation<Self, Value>.Changes,
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> RegistrationHandle {
    let components = KeyPathComponents(of: keyPath)
    // Its first read, or any later one, could stop the program.
    if components?.isIndexingArray == true {
      reportProblem(
        .arrayIndexKeyPath,
        "observe(\(Self.describe(keyPath))) on \(Self.self) is refused: the key path reads an array element by "
          + "position, and reading it again after the array shrinks would stop the program; observe the array "
          + "and read the element in the handler, or use a subscript that returns an optional"
      )
      hooks.ended?()
      return RegistrationHandle(storage: nil, registration: nil)
    }
    let observation = DerivedObservation(
      root: self,
      storage: storage,
      keyPath: keyPath,
      options: options,
      hooks: hooks,
      changes: changes,
      handler: changeHandler
    )
    let value = observation.start(root: self, site: site)
    // One that depends on nothing was reported by `start` (and has no
    // last read); the dependencies are looked at only for a key path
    // through a class that announces nothing.
    let plain = components?.unannouncingClass(lastRead: observation.lastDependencyValueType)
    if let plain {
      reportProblem(.unobservableKeyPath, Self.unannouncedChainMessage(Self.describe(keyPath), through: plain))
    } else if observation.dependencyCount > 0, let leaf = components?.unannouncedLeaf {
      // As the string form refuses it: the last property is never heard.
      reportProblem(.unobservableKeyPath, Self.unannouncedLeafMessage(Self.describe(keyPath), leaf: leaf.name, of: leaf.type))
    }
    // A class named above to mark is named once: marked, its objects are
    // heard freed too.
    if plain == nil, options.contains(.deallocation),
      let unheard = unheardDeallocationClass(types: components?.steps.map(\.output) ?? [], values: [value])
    {
      observation.reportUnheardDeallocation(of: unheard)
    }
    sendInitial(options: options, isLive: observation.isLive, value: value) { changeHandler(self, $0) }
    return RegistrationHandle(storage: storage, registration: .passUnretained(observation))
  }
}
