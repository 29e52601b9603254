/// Observations owned by an observer: made through one controller, ended
/// together when the controller goes away — FBKVOController's answer to
/// KVO's crashes, with its fixes built in.
///
/// Keep the controller in a property of the observer. Every block receives
/// the observer (not kept alive, so a block that uses it creates no retain
/// cycle), the observed object and the change. When the observer is freed,
/// no block is called again; when the controller is freed — usually with
/// its observer — every observation ends.
///
/// ```swift
/// final class ProfileViewModel {
///     private lazy var kvo = KVOController(observer: self)
///     var title = ""
///
///     init(person: Person) {
///         kvo.observe(person, \.name, options: [.initial, .new]) { viewModel, person, change in
///             viewModel.title = change.newValue ?? ""
///         }
///     }
/// }
/// ```
///
/// Rules:
/// - A second observation of the same object and key path on one
///   controller is ignored (FBKVOController's rule): observing is
///   idempotent. A stored key is the same key by type and by string
///   (`\.name` and `"name"`).
/// - `retainsObserved` (default `true`) keeps observed objects alive until
///   they are unobserved. A controller that does not retain them drops an
///   object's observations when it is freed, and stays usable.
/// - `unobserve` (one key path, one object, everything) may be called in
///   any order, repeatedly, from any thread and from inside a block — its
///   `.initial` call included. After it returns no block of what it ended
///   starts. Called from outside every block, it also waits (blocking, not
///   spinning) until such blocks already running on other threads have
///   returned, so none runs after it. Called from inside a block, it does
///   not wait: the other thread may be waiting for this one (two blocks
///   unobserving each other), so a block running elsewhere may still be
///   finishing when it returns.
/// - A `nil` object is ignored, as in FBKVOController.
///
/// Use tokens (``KeyValueObservable/observe(_:options:isolation:fileID:line:changeHandler:)``)
/// for one or two observations held by anyone; use a controller when an
/// object observes many things and should stop observing all of them when
/// it goes away.
public final class KVOController<Observer: AnyObject>: CustomDebugStringConvertible {
  private let observerReference: SharedUnownedReference<Observer>

  /// Whether observed objects are kept alive until unobserved.
  ///
  /// ```swift
  /// let kvo = KVOController(observer: self, retainsObserved: false)
  /// assert(!kvo.retainsObserved)
  /// ```
  public let retainsObserved: Bool

  /// The observations, by object and key (internal: the ending in
  /// KVOController+Ending.swift files them too).
  let observations = LockedState(ControllerObservationTable())

  /// What this controller's registrations name as their observer.
  private let identity = ControllerIdentity(description: "KVOController<\(Observer.self)>")

  /// A controller for `observer`, which it does not keep alive.
  ///
  /// ```swift
  /// let kvo = KVOController(observer: viewModel)                         // keeps observed objects alive
  /// let weakKVO = KVOController(observer: viewModel, retainsObserved: false)
  /// ```
  ///
  /// - Parameters:
  ///   - observer: Handed to every block; not kept alive.
  ///   - retainsObserved: Whether observed objects are kept alive until
  ///     they are unobserved. Pass `false` when an observed object owns
  ///     the controller (observing itself, or its owner), which would
  ///     otherwise be a retain cycle.
  public init(observer: Observer, retainsObserved: Bool = true) {
    self.observerReference = SharedUnownedReference(observer)
    self.retainsObserved = retainsObserved
    identity.attach(self)
  }

  deinit {
    unobserveAll()
  }

  /// The observer, while it lives.
  ///
  /// ```swift
  /// kvo.observer === viewModel  // true
  /// ```
  public var observer: Observer? { observerReference.referent }

  // MARK: Observing

  /// Observes `keyPath` on `object` and calls `block` with the observer,
  /// the object and the change, for every change until unobserved.
  ///
  /// Any key path ``KeyValueObservable/observe(_:options:isolation:fileID:line:changeHandler:)``
  /// accepts works. A second observation of the same object and key path is
  /// ignored; a `nil` object is ignored.
  ///
  /// ```swift
  /// kvo.observe(person, \.age, options: [.old, .new]) { viewModel, person, change in
  ///     viewModel.ageChanged(from: change.oldValue!, to: change.newValue!)
  /// }
  /// ```
  ///
  /// The block takes the isolation of the code that registers it, as
  /// `observe`'s handler does: registered on the main actor, it may touch
  /// main-actor state. In debug builds each call checks that it runs on
  /// that actor, and stops with a message naming the class and the key
  /// when it does not.
  ///
  /// - Parameters:
  ///   - object: The object to observe; `nil` is ignored.
  ///   - keyPath: The value to observe, rooted at the object's type.
  ///   - options: Which values the changes carry; see ``KeyValueObservingOptions``.
  ///   - isolation: The actor the block is isolated to: the caller's,
  ///     which Swift passes for you.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph``.
  ///   - line: The line of the call, likewise.
  ///   - block: Called with the observer, the object and the change.
  public func observe<Object: KeyValueObservable, Value>(
    _ object: Object?,
    _ keyPath: KeyPath<Object, Value>,
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    block: @escaping (Observer, Object, KeyValueObservedChange<Value>) -> Void
  ) {
    guard let object else { return }
    let (key, description) = Self.key(of: keyPath)
    guard let observation = begin(object, key: key, keyDescription: description, options: options) else { return }
    let gate = observation.gate
    let observer = observerReference
    let hooks = ObservationHooks(source: .controller(identity))
    let site = RegistrationSite(fileID: fileID, line: line)
    let handler = Self.checking(isolatedTo: isolation, for: keyPath) { (object: Object, change: KeyValueObservedChange<Value>) in
      gate.pass {
        guard let observer = observer.referent else { return }
        block(observer, object, change)
      }
    }
    let token = object.observe(keyPath, options: options, hooks: hooks, site: site, changeHandler: handler)
    if !(key.base is String) {
      let readable = object.readableDescription(of: keyPath)
      observations.withLock { _ in observation.keyDescription = readable }
    }
    finish(observation, token: token)
  }
  // MARK: Unobserving

  /// Stops observing `keyPath` on `object`. Harmless when it is not
  /// observed.
  ///
  /// ```swift
  /// kvo.unobserve(person, \.age)
  /// ```
  public func unobserve<Object: KeyValueObservable, Value>(_ object: Object?, _ keyPath: KeyPath<Object, Value>) {
    guard let object else { return }
    let key = Self.key(of: keyPath).key
    end(waitingFor: (ObjectIdentifier(object), key)) { $0.remove(of: object, key: key) }
  }

  /// Stops observing the string key path `keyPath` on `object`. Harmless
  /// when it is not observed.
  ///
  /// ```swift
  /// kvo.unobserve(person, keyPath: "address.city")
  /// ```
  public func unobserve(_ object: AnyObject?, keyPath: String) {
    guard let object else { return }
    let key = AnyHashable(keyPath)
    end(waitingFor: (ObjectIdentifier(object), key)) { $0.remove(of: object, key: key) }
  }

  /// Stops observing anything on `object`. Harmless when nothing is.
  ///
  /// ```swift
  /// kvo.unobserve(person)
  /// ```
  public func unobserve(_ object: AnyObject?) {
    guard let object else { return }
    end(waitingFor: (ObjectIdentifier(object), nil)) { $0.removeAll(of: object) }
  }

  /// Stops every observation of this controller; its deinit does the same.
  ///
  /// ```swift
  /// kvo.unobserveAll()
  /// ```
  public func unobserveAll() {
    end(waitingFor: (nil, nil)) { $0.removeAll() }
  }

  // MARK: Debugging

  /// What the controller observes — object, key path, options — one line
  /// each: the observation graph from the observer's side
  /// (``KeyValueObservable/observationInfo`` gives the object's side).
  ///
  /// ```swift
  /// print(kvo.debugDescription)
  /// // KVOController<ProfileViewModel> observer: ProfileViewModel, retains observed objects, 1 observation
  /// //   Person 0x…: name [.initial, .new]
  /// ```
  public var debugDescription: String {
    let live = liveObservations()
    let observerText = observer.map { "\(type(of: $0))" } ?? "freed"
    let retains = retainsObserved ? "retains observed objects" : "does not retain observed objects"
    var lines = [
      "KVOController<\(Observer.self)> observer: \(observerText), \(retains), "
        + "\(live.count) observation\(live.count == 1 ? "" : "s")"
    ]
    for observation in live {
      let address = UInt(bitPattern: observation.objectID)
      let key = observations.withLock { _ in observation.keyDescription }
      lines.append("  \(observation.objectType) 0x\(String(address, radix: 16)): \(key) \(observation.options)")
    }
    return lines.joined(separator: "\n")
  }

  // MARK: Implementation

  /// What a string-keyed observation hands each change to, while the
  /// observer lives and the observation's gate is open: the observer, the
  /// object, the key path, the change dictionary and the context.
  typealias StringKeyHandler = (Observer, AnyObject, String, [KeyValueChangeKey: Any], UnsafeMutableRawPointer?) -> Void

  /// Observes each string key path of `keyPaths` through a classic
  /// observer that hands each change to `handler`, once every key path is
  /// checked: an empty list, or any key path that is empty, unknown or
  /// nothing can notify, throws before anything is observed. The list and
  /// each key path's form are checked before the object, as
  /// FBKVOController asserts them before it looks at it: a `nil` object
  /// with an empty list throws too, and otherwise observes nothing.
  func observeByString<Object: KeyValueObservable>(
    _ object: Object?,
    _ keyPaths: [String],
    options: KeyValueObservingOptions,
    context: UnsafeMutableRawPointer?,
    site: RegistrationSite,
    handler: @escaping StringKeyHandler
  ) throws(KeyValueCodingError) {
    guard !keyPaths.isEmpty else { throw .emptyKey(keyPath: "", type: "\(Object.self)") }
    for keyPath in keyPaths {
      _ = try Object.components(of: keyPath)
    }
    guard let object else { return }
    for keyPath in keyPaths {
      _ = try object.checkedObservableComponents(of: keyPath)
    }
    for keyPath in keyPaths {
      observeByString(object, keyPath, options: options, context: context, site: site, handler: handler)
    }
  }

  /// Observes one checked string key path.
  private func observeByString<Object: KeyValueObservable>(
    _ object: Object,
    _ keyPath: String,
    options: KeyValueObservingOptions,
    context: UnsafeMutableRawPointer?,
    site: RegistrationSite,
    handler: @escaping StringKeyHandler
  ) {
    guard let observation = begin(object, key: AnyHashable(keyPath), keyDescription: keyPath, options: options) else {
      return
    }
    let gate = observation.gate
    let observer = observerReference
    let forwarder = ControllerChangeForwarder { object, keyPath, change, context in
      gate.pass {
        guard let observer = observer.referent else { return }
        handler(observer, object, keyPath, change, context)
      }
    }
    observations.withLock { _ in observation.adapter = forwarder }
    // The key path was checked by the caller.
    guard
      let (storage, registration) = try? object.registerClassic(
        forwarder,
        forKeyPath: keyPath,
        options: options,
        context: context,
        recorded: false,
        controller: identity,
        site: site
      )
    else {
      end(waitingFor: nil) { $0.remove(observation) }
      return
    }
    finish(observation, token: KeyValueObservation(RegistrationHandle(storage: storage, registration: .passUnretained(registration))))
  }

  /// What tells observations of one object apart: the name of a stored
  /// key, so that `\.name` and `"name"` are one key, and the key path
  /// otherwise.
  private static func key<Object: KeyValueObservable, Value>(
    of keyPath: KeyPath<Object, Value>
  ) -> (key: AnyHashable, description: String) {
    if let slot = Object._$kvoSlot(for: keyPath), let name = Object._$kvoKey(forSlot: slot) {
      return (AnyHashable(name), name)
    }
    return (AnyHashable(keyPath as AnyKeyPath), "\(keyPath)")
  }

  /// Files a new observation of `key` on `object`, or returns `nil` when
  /// one is filed already.
  private func begin(
    _ object: AnyObject,
    key: AnyHashable,
    keyDescription: String,
    options: KeyValueObservingOptions
  ) -> ControllerObservation? {
    sweepFreedObjects(always: false)
    let observation = ControllerObservation(
      object: object,
      retained: retainsObserved,
      key: key,
      keyDescription: keyDescription,
      options: options
    )
    let (added, stale) = observations.withLock { $0.file(observation, of: object) }
    end(stale.map { [$0] } ?? [])
    return added ? observation : nil
  }

  /// Hands `observation` its token, or ends the registration at once when
  /// the observation was unobserved while it was being made (from its own
  /// `.initial` block, or from another thread).
  private func finish(_ observation: ControllerObservation, token: KeyValueObservation) {
    let kept = observations.withLock { observations -> Bool in
      guard observations.contains(observation) else { return false }
      observation.token = token
      return true
    }
    if !kept {
      token.invalidate()
    }
  }

  /// Ends observations taken out of the list: closes their gates, then
  /// invalidates their registrations. Called after the lock.
  private func end(_ ended: [ControllerObservation]) {
    end(waitingFor: nil) { _ in ended }
  }

  /// The observations whose object is alive, in the order they were made.
  private func liveObservations() -> [ControllerObservation] {
    sweepFreedObjects(always: true)
    return observations.withLock { $0.all }
  }

  /// Drops the observations of objects that have been freed (only a
  /// controller that does not retain them has any; their registrations
  /// ended with the object): `always`, or when their number has doubled
  /// since the last sweep, so that observing stays O(1) amortised.
  private func sweepFreedObjects(always: Bool) {
    guard !retainsObserved else { return }
    // The references are read outside the lock: reading one makes a
    // strong reference whose release may free the object.
    guard let candidates = observations.withLock({ always ? $0.all : $0.dueForSweep() }) else { return }
    let freed = candidates.filter { $0.object == nil }
    guard !freed.isEmpty else { return }
    end(waitingFor: nil) { observations in freed.flatMap { observations.remove($0) } }
  }
}

extension KVOController: ObservedObjectsListing {
  func observedObjects() -> [AnyObject] {
    var seen: Set<ObjectIdentifier> = []
    // The references are read outside the lock, as everywhere here.
    return observations.withLock { $0.all }.compactMap(\.object).filter { seen.insert(ObjectIdentifier($0)).inserted }
  }
}

/// A controller is `Sendable` when its observer is: it hands the observer
/// out (``KVOController/observer``), so a controller of an observer that
/// one thread owns stays with that thread, as the observer does.
///
/// ```swift
/// final class Screen: Sendable { … }
/// let kvo = KVOController(observer: screen)
/// Task.detached { kvo.unobserveAll() }   // compiles: Screen is Sendable
/// ```
extension KVOController: @unchecked Sendable where Observer: Sendable {
  // @unchecked: `observations` is behind its lock, which also guards each
  // observation's token, adapter and key description; `observerReference`
  // is read through the runtime's atomic reference counts; the rest is
  // immutable.
}
