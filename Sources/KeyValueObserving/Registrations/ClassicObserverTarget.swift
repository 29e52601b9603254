/// Who a classic registration notifies: a ``KeyValueObserver``, held
/// without being kept alive, with the key path string and the context it
/// was registered with.
///
/// The first change that finds the observer freed removes the registration
/// and reports ``KeyValueObservingDiagnostic/Kind/observerFreedWhileRegistered``;
/// the observer is never messaged after it is freed.
///
/// The observer is held as an ``UnownedReference``, not `weak`: a weak
/// reference would put the observer's reference counts in a side table for
/// the rest of its life, and slow every retain and release of it — each
/// notification's, and all of its own code's. An observer freed while
/// registered keeps its memory (not its properties) until the registration
/// is dropped.
@usableFromInline
package final class ClassicObserverTarget: @unchecked Sendable {
  // @unchecked Sendable: `observer` is read through the runtime's atomic
  // reference counts; the rest is immutable. The observer is called on the
  // thread that made the change, as every callback is.

  private let observer: UnownedReference<AnyObject>

  /// The observer's identity, compared before the reference is read:
  /// reading the reference to another object under a lock could release
  /// that object's last strong reference there.
  let observerID: ObjectIdentifier

  /// The observer's type, for descriptions and diagnostics.
  let observerType: any KeyValueObserver.Type

  /// The key path string, as registered; handed back to the observer.
  let keyPath: String

  /// The context pointer, as registered; handed back to the observer.
  nonisolated(unsafe) let context: UnsafeMutableRawPointer?

  let options: KeyValueObservingOptions

  /// The observed object's storage, to remove the registration from once
  /// the observer is gone.
  private let storage: _KeyValueObservationStorage

  /// Who observes, when that is not the observer itself: the controller a
  /// forwarder works for.
  let controller: ControllerIdentity?

  init(
    observer: any KeyValueObserver,
    keyPath: String,
    options: KeyValueObservingOptions,
    context: UnsafeMutableRawPointer?,
    storage: _KeyValueObservationStorage,
    controller: ControllerIdentity? = nil
  ) {
    self.controller = controller
    self.observer = UnownedReference(observer)
    self.observerID = ObjectIdentifier(observer)
    self.observerType = type(of: observer)
    self.keyPath = keyPath
    self.options = options
    self.context = context
    self.storage = storage
  }

  /// Whether this target is `observer`'s registration for `keyPath` with
  /// `context` (any context when `anyContext`). Safe under a lock while the
  /// caller holds `observer`: the reference is read only when it names
  /// that very object.
  ///
  /// Matched by identity: an observer removing itself from its own `deinit`
  /// is found although the reference already reads `nil` there.
  func matches(
    _ observer: any KeyValueObserver,
    keyPath: String,
    context: UnsafeMutableRawPointer?,
    anyContext: Bool
  ) -> Bool {
    guard observerID == ObjectIdentifier(observer), self.keyPath == keyPath,
      anyContext || self.context == context
    else { return false }
    if let registered = self.observer.object {
      return registered === observer
    }
    // `nil`: either the caller is in its deinit, or the caller lives at the
    // address of a freed observer whose registration is stale.
    return isDeinitializing(observer)
  }

  /// The observer, while it lives.
  var liveObserver: AnyObject? { observer.object }

  /// Whether the observer has been freed.
  var isObserverFreed: Bool { observer.object == nil }

  /// Sends one change to the observer, or, when it is gone, removes the
  /// registration.
  ///
  /// `mayBeOptional` is `false` when the values are known not to be
  /// optionals (see ``KeyValueObservedChange/dictionary(options:isInitial:mayBeOptional:)``).
  func send(
    _ change: KeyValueObservedChange<some Any>,
    from object: AnyObject,
    isInitial: Bool = false,
    mayBeOptional: Bool = true
  ) {
    send(change.dictionary(options: options, isInitial: isInitial, mayBeOptional: mayBeOptional), from: object)
  }

  /// Sends a change dictionary to the observer, or drops the registration
  /// when the observer was freed.
  func send(_ change: [KeyValueChangeKey: Any], from object: AnyObject) {
    guard let observer = observer.object else {
      dropFreedObserver()
      return
    }
    Self.send(change, from: object, to: observer, of: observerType, keyPath: keyPath, context: context)
  }

  /// Calls `observer`, an `Observer`: the type the observer was registered
  /// with gives the conformance, with no cast at run time.
  private static func send<Observer: KeyValueObserver>(
    _ change: [KeyValueChangeKey: Any],
    from object: AnyObject,
    to observer: AnyObject,
    of _: Observer.Type,
    keyPath: String,
    context: UnsafeMutableRawPointer?
  ) {
    unsafeDowncast(observer, to: Observer.self).observeValue(
      forKeyPath: keyPath, of: object, change: change, context: context
    )
  }

  /// Removes the registration of a freed observer, reporting it once.
  func dropFreedObserver() {
    guard storage.removeClassic(of: observerID, where: { $0 === self }) else { return }
    reportProblem(
      .observerFreedWhileRegistered,
      "an observer of type \(observerType) was freed while registered for \"\(keyPath.abbreviated)\" on an object of type "
        + "\(storage.objectType); its registration was dropped and it was not messaged "
        + "(call removeObserver(_:forKeyPath:) before releasing it)"
    )
  }

  /// Who observes, for ``KeyValueObservable/observationInfo``.
  var description: String {
    if let controller { return controller.description }
    let state = isObserverFreed ? ", freed" : ""
    guard let context else { return "\(observerType) (classic observer\(state))" }
    return "\(observerType) (classic observer, context \(context)\(state))"
  }
}
