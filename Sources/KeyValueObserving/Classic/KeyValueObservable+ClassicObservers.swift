extension KeyValueObservable {
  /// Registers `observer` to receive changes of the string key path
  /// `keyPath` through
  /// ``KeyValueObserver/observeValue(forKeyPath:of:change:context:)``, as
  /// Objective-C KVO's `addObserver:forKeyPath:options:context:` does.
  ///
  /// Any key path string works: a stored property (`"name"`), a computed
  /// one (`"summary"`, its dependencies found as for
  /// ``observe(_:options:isolation:fileID:line:changeHandler:)``), and a chain through
  /// `@KeyValueObservable` objects (`"address.street"`, re-wired when a link
  /// is replaced). The path is checked against the types' key tables now:
  /// a mistyped key throws here instead of never firing.
  ///
  /// Registrations count as Apple's do: adding the same observer, key path
  /// and context twice delivers each change twice, and each
  /// ``removeObserver(_:forKeyPath:context:)`` takes one away. The observer
  /// is not kept alive: once freed it is dropped, never messaged. With
  /// `.initial`, the first notification arrives before this returns.
  ///
  /// ```swift
  /// let logger = NameLogger()
  /// try person.addObserver(logger, forKeyPath: "address.street", options: [.old, .new])
  /// person.address?.street = "Elm"  // logger is told: old "Oak", new "Elm"
  /// try person.addObserver(logger, forKeyPath: "nmae")  // throws .unknownKey
  /// ```
  ///
  /// - Parameters:
  ///   - observer: Receives the changes; not kept alive.
  ///   - keyPath: Property names joined by dots, starting at this object.
  ///   - options: What the change dictionaries carry, and which extra
  ///     notifications are sent; see ``KeyValueObservingOptions``.
  ///   - context: Any pointer, handed back with every change, that tells
  ///     this registration from others of the same observer.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph`` in a
  ///     debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  /// - Throws: ``KeyValueCodingError`` for an empty key path or component,
  ///   an unknown key, a component before the last whose type is not a
  ///   `@KeyValueObservable` class
  ///   (``KeyValueCodingError/notAnObservableObject(keyPath:key:type:)``),
  ///   or a path with a property nothing announces on it (a
  ///   `@KeyValueIgnored`, `lazy` or property-wrapped one) as its last, or
  ///   reading nothing observable besides
  ///   (``KeyValueCodingError/neverNotifies(keyPath:key:type:)``, naming
  ///   that property). A key whose
  ///   automatic notification is turned off is accepted, as it is
  ///   announced by hand; so is a path of constants (`let`s) and computed
  ///   properties that read nothing observable — a constant computed
  ///   `title` through a `let` link — as Objective-C KVO accepts one: its
  ///   registration is sent `.initial` and told only of the computed
  ///   properties' announcements; a debug build reports a lone computed
  ///   key over nothing observable, as the typed form does.
  /// - Complexity: O(1) amortised in the other registrations on this object
  ///   (plus, for a computed key or a chain, one read of the key path).
  public func addObserver(
    _ observer: any KeyValueObserver,
    forKeyPath keyPath: String,
    options: KeyValueObservingOptions = [],
    context: UnsafeMutableRawPointer? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) throws(KeyValueCodingError) {
    let storage = _$kvoStorage()
    dropFreedObservers(in: storage)
    _ = try registerClassic(
      observer, forKeyPath: keyPath, options: options, context: context, recorded: true,
      site: RegistrationSite(fileID: fileID, line: line)
    )
  }

  /// Removes the most recent registration of `observer` for `keyPath` with
  /// `context`; returns whether there was one.
  ///
  /// Removing what was never added, or removing twice, returns `false`,
  /// changes nothing, and reports
  /// ``KeyValueObservingDiagnostic/Kind/unregisteredRemoval`` — where
  /// Objective-C KVO raises an exception. An empty or unknown key cannot
  /// have been registered, so it is reported the same way instead of
  /// thrown. Safe from any thread and inside a callback.
  ///
  /// ```swift
  /// try person.addObserver(logger, forKeyPath: "name", context: &nameContext)
  /// person.removeObserver(logger, forKeyPath: "name", context: &nameContext)  // true
  /// person.removeObserver(logger, forKeyPath: "name", context: &nameContext)  // false, harmless
  /// ```
  @discardableResult
  public func removeObserver(
    _ observer: any KeyValueObserver,
    forKeyPath keyPath: String,
    context: UnsafeMutableRawPointer?
  ) -> Bool {
    removeClassic(observer, keyPath: keyPath, context: context, anyContext: false)
  }

  /// Removes the most recent registration of `observer` for `keyPath`,
  /// whatever its context; returns whether there was one.
  ///
  /// As ``removeObserver(_:forKeyPath:context:)``, unregistered removals
  /// return `false` and are reported, never raised.
  ///
  /// ```swift
  /// try person.addObserver(logger, forKeyPath: "name")
  /// person.removeObserver(logger, forKeyPath: "name")  // true
  /// person.removeObserver(logger, forKeyPath: "name")  // false, harmless
  /// ```
  @discardableResult
  public func removeObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String) -> Bool {
    removeClassic(observer, keyPath: keyPath, context: nil, anyContext: true)
  }

  // MARK: Implementation

  private func removeClassic(
    _ observer: any KeyValueObserver,
    keyPath: String,
    context: UnsafeMutableRawPointer?,
    anyContext: Bool
  ) -> Bool {
    let removed =
      _$kvoObservedStorage?.takeUnretainedValue().removeClassic(of: ObjectIdentifier(observer)) { target in
        target.matches(observer, keyPath: keyPath, context: context, anyContext: anyContext)
      } ?? false
    if !removed {
      let contextNote = anyContext ? "" : context.map { " with context \($0)" } ?? " with a nil context"
      reportProblem(
        .unregisteredRemoval,
        "removeObserver: an observer of type \(type(of: observer)) is not registered for \"\(keyPath.abbreviated)\"\(contextNote) "
          + "on an object of type \(Self.self); nothing was removed"
      )
    }
    return removed
  }

  /// Registers `observer` for the string key path `keyPath` and returns the
  /// registration. A `recorded` registration is filed for
  /// `removeObserver` to find; one that is not is ended through a token for
  /// the returned registration. Either way it is in place before the
  /// `.initial` notification, so that the observer may remove it there.
  /// `controller` names who observes when that is not the observer itself
  /// (a controller's forwarder).
  func registerClassic(
    _ observer: any KeyValueObserver,
    forKeyPath keyPath: String,
    options: KeyValueObservingOptions,
    context: UnsafeMutableRawPointer?,
    recorded: Bool,
    controller: ControllerIdentity? = nil,
    site: RegistrationSite
  ) throws(KeyValueCodingError) -> (storage: _KeyValueObservationStorage, registration: _KeyValueRegistration) {
    // Its reads are its own, not those of a tracked closure that made it.
    let hidden = _KeyValueAccessTracking.suspendTracking()
    defer { _KeyValueAccessTracking.resumeTracking(hidden) }
    let (components, isConstant) = try checkedObservableComponents(of: keyPath)
    let first = try Self.readableKeyPath(forKey: components[0])
    let storage = _$kvoStorage()
    let target = ClassicObserverTarget(
      observer: observer,
      keyPath: keyPath,
      options: options,
      context: context,
      storage: storage,
      controller: controller
    )
    let registration: _KeyValueRegistration
    let initialValue: () -> Any?
    let hearsDeallocation = options.contains(.deallocation)
    if components.count == 1, let slot = Self._$kvoSlot(forKey: components[0]),
      !storage.hasDeclaredDependencies(first),
      // A key that may hold an object it hears freed is derived (see
      // `ObjectLifetime`).
      !(hearsDeallocation && ObjectLifetime.mayHoldObject(type(of: first).valueType))
    {
      registration = ClassicRegistration(target: target, slot: slot, valueType: type(of: first).valueType)
      registration.site = site
      // `self` is alive, so its storage is open and the addition succeeds.
      _ = storage.add(registration)
      initialValue = { self[keyPath: first] }
    } else {
      // A computed key or a chain: a derived observation that reads the
      // path key by key.
      let observation = DerivedObservation<Self, Any?>(
        root: self,
        storage: storage,
        filedUnder: first,
        read: { root, keys in
          let value = readStringPath(components, from: root, into: &keys)
          if hearsDeallocation { ObjectLifetime.track(value, in: &keys) }
          return value
        },
        options: options,
        hooks: ObservationHooks(source: .classic(target)),
        changes: DerivedObservation<Self, Any?>.changes(),
        handler: { root, change in target.send(change, from: root) }
      )
      let value = observation.start(root: self, constant: isConstant, site: site)
      registration = observation
      initialValue = { value }
    }
    if recorded {
      _ = storage.recordClassic(target, registration: registration)
    }
    sendInitial(options: options, isLive: registration.isLive, value: initialValue()) {
      target.send($0, from: self, isInitial: true)
    }
    return (storage, registration)
  }

  /// Removes the registrations of observers freed since they registered,
  /// when the registrations have doubled since the last sweep (so that an
  /// add stays O(1) amortised); a freed observer's registration also goes
  /// at the next change of its key.
  private func dropFreedObservers(in storage: _KeyValueObservationStorage) {
    for target in storage.classicTargetsDueForSweep() ?? [] where target.isObserverFreed {
      target.dropFreedObserver()
    }
  }

  /// The components of a string key path that may be observed: checked
  /// against the key tables of the types along it, and refused with
  /// ``KeyValueCodingError/neverNotifies(keyPath:key:type:)`` naming the
  /// cause when a property on the way announces nothing — an ignored, lazy
  /// or property-wrapped stored one — and it is the last, or nothing
  /// observable is read, so that a registration that could miss every
  /// change is an error, not silence. `isConstant`: whether the path
  /// reads constants (`let`s) only, so that it is expected never to
  /// notify, and is not reported.
  ///
  /// Accepted, as Objective-C KVO accepts them: a first key whose
  /// automatic notification is turned off (see
  /// ``KeyValueObservingCustomization/automaticallyNotifiesObservers(for:)``),
  /// whose changes are announced by hand; a path that reads an observable
  /// key anywhere (a link that can be replaced); and a path of constants
  /// and computed properties that read nothing observable — a constant
  /// computed `title` through a `let` link —, which hears only the
  /// computed properties' announcements (a lone computed key is reported,
  /// as the typed form reports it: see ``DerivedObservation/start(root:constant:site:)``).
  func checkedObservableComponents(of path: String) throws(KeyValueCodingError) -> (components: [String], isConstant: Bool) {
    let components = try Self.checkedComponents(of: path)
    if components.count == 1, Self._$kvoSlot(forKey: components[0]) != nil {
      return (components, false)
    }
    let first = try Self.readableKeyPath(forKey: components[0])
    if let customization = Self.self as? any KeyValueObservingCustomization.Type,
      !customization.automaticallyNotifiesObservers(for: first)
    {
      return (components, false)
    }
    let properties = pathProperties(components)
    // A last property nothing announces is never heard, whatever the
    // links before it announce.
    if properties.leafIsUnannounced, let (key, type) = properties.firstUnannounced {
      throw .neverNotifies(keyPath: path, key: key, type: "\(type)")
    }
    var keys: [ReadKey] = []
    let (_, accesses) = withAccessTracking { readStringPath(components, from: self, into: &keys) }
    guard resolveDependencies(tracked: accesses, read: keys).isEmpty else { return (components, false) }
    if let (key, type) = properties.firstUnannounced {
      throw .neverNotifies(keyPath: path, key: key, type: "\(type)")
    }
    return (components, properties.constantsOnly)
  }

  /// What the properties along `components` are, on the objects the path
  /// holds now (see ``PathProperties``).
  private func pathProperties(_ components: [String]) -> PathProperties {
    var properties = PathProperties()
    var object: any KeyValueObservable = self
    for (index, key) in components.enumerated() {
      let type = Swift.type(of: object)
      if type._$kvoIsUnannounced(forKey: key) {
        if properties.firstUnannounced == nil { properties.firstUnannounced = (key, type) }
        properties.leafIsUnannounced = index == components.count - 1
      }
      properties.constantsOnly = properties.constantsOnly && type._$kvoIsConstant(forKey: key)
      guard index < components.count - 1, let keyPath = try? type.readableKeyPath(forKey: key),
        let next = flattened(object[keyPath: keyPath]) as? any KeyValueObservable
      else { break }
      object = next
    }
    return properties
  }

  /// The components of a string key path, checked against the key tables
  /// of the types along it.
  static func checkedComponents(of path: String) throws(KeyValueCodingError) -> [String] {
    let components = try components(of: path)
    var type: any KeyValueObservable.Type = Self.self
    for (index, key) in components.enumerated() {
      let keyPath = try type.readableKeyPath(forKey: key)
      guard index < components.count - 1 else { break }
      let valueType = unwrappedType(Swift.type(of: keyPath).valueType)
      guard let observable = valueType as? any KeyValueObservable.Type else {
        if valueType is AnyObject.Type {
          // The thrown error names the link; the report, the class to mark.
          reportProblem(
            .unobservableKeyPath,
            "\"\(path.abbreviated)\" cannot be observed on \(Self.self): \(type).\(key) holds a \(valueType), which "
              + "is not marked @KeyValueObservable, so nothing announces its changes and key-value coding cannot "
              + "reach its keys; "
              + MarkableClass.advice(
                for: valueType,
                mark: "mark \(valueType) with @KeyValueObservable — every class a chain passes through must be marked",
                otherwise: "observe \"\(components[...index].joined(separator: "."))\", which notifies when the "
                  + "\(valueType) is replaced"
              )
          )
        }
        throw .notAnObservableObject(keyPath: path, key: key, type: "\(type)")
      }
      type = observable
    }
    return components
  }
}

/// What the properties along a string key path are, found on the objects
/// it holds now (up to a `nil` link): why a path is refused, or expected
/// never to notify.
private struct PathProperties {
  /// The first property on the way that nothing announces (an ignored,
  /// lazy or property-wrapped stored one), with the type it was found on.
  var firstUnannounced: (key: String, type: any KeyValueObservable.Type)?
  /// Whether the path's last property is one nothing announces.
  var leafIsUnannounced = false
  /// Whether every property reached is a constant (`let`).
  var constantsOnly = true
}

/// Reads a string key path from `root` key by key, through the dynamic type
/// of each object on the way; `nil` when a link is `nil` or not observable.
/// Each key read is added to `keys`, for its declared dependencies.
private func readStringPath(
  _ components: [String],
  from root: any KeyValueObservable,
  into keys: inout [ReadKey]
) -> Any? {
  var object = root
  for (index, key) in components.enumerated() {
    guard let keyPath = try? type(of: object).readableKeyPath(forKey: key) else { return nil }
    keys.append(ReadKey(object: object, keyPath: keyPath, isObservedKey: index == 0))
    let value = flattened(object[keyPath: keyPath])
    guard index < components.count - 1 else { return value }
    guard let next = value as? any KeyValueObservable else { return nil }
    object = next
  }
  return nil
}
