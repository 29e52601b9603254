/// Runs `apply` now, and again after each change of anything it read,
/// until the returned token is invalidated or released.
///
/// Every observable property `apply` reads is observed: on any number of
/// `@KeyValueObservable` objects, through chains, computed properties and
/// to-many collections, and on `@Observable` classes too, through
/// `withObservationTracking`, where Observation is available. Each run
/// tracks its reads anew: a branch that stops reading a key stops
/// observing it.
///
/// ```swift
/// let token = withKeyValueObservation {
///     label.text = "\(model.name) has \(model.items.count) items"
/// }
/// model.name = "Ada"         // runs it again, after the change
/// model.items.append("pen")  // and again
/// ```
///
/// Unlike `withObservationTracking`, it keeps observing, and runs after a
/// change, synchronously, on the thread that made it — as an `observe`
/// handler does — so that what it sets is current when the change
/// returns. Changes made inside one ``KeyValueObservable/withChange(for:_:)``,
/// one will/did pair or one to-many mutation give one run; with
/// ``KeyValueTrackingOptions/coalesced``, all the changes of one turn of
/// the closure's actor give one run, on that actor. A change reported only
/// by Swift Observation (an `@Observable` class's, which tells before the
/// change) runs it afterwards, on its actor, asynchronously.
///
/// A run that writes a key it reads sees its own write and is not run
/// again for it. The closure takes the isolation of its caller, and a
/// debug build checks that each run is there (see
/// ``KeyValueObservable/observe(_:options:isolation:fileID:line:changeHandler:)``).
/// The observation ends, and its token turns inactive, when the token is
/// invalidated or released, or when every `@KeyValueObservable` object
/// the last run read is freed; it releases the closure then.
///
/// - Parameters:
///   - options: How it runs again; see ``KeyValueTrackingOptions``.
///   - isolation: The actor `apply` is isolated to: the caller's, which
///     Swift passes for you.
///   - fileID: Where the call is, for ``KeyValueObservationGraph``.
///   - line: The line of the call, likewise.
///   - apply: What to run; what it reads is what is observed.
/// - Returns: The token that keeps the observation alive.
public func withKeyValueObservation(
  options: KeyValueTrackingOptions = [],
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  _ apply: @escaping () -> Void
) -> KeyValueObservation {
  // The closure is kept by its host, the rerun, and the read reaches it
  // there: a read that captures nothing needs no context of its own.
  trackedObservation(
    body: apply, read: { rerun, _ in rerun.callBody() }, options: [], tracking: options,
    isolation: isolation,
    site: RegistrationSite(fileID: fileID, line: line), changes: DerivedObservation<Rerun, Void>.changes(),
    changeHandler: nil
  )
}

/// Observes the value `read` returns: calls `changeHandler` after each
/// change of anything `read` read, with the value's own old and new values,
/// until the returned token is invalidated or released.
///
/// `read` is tracked as ``withKeyValueObservation(options:isolation:fileID:line:_:)``
/// tracks its closure, and runs again after each change; `changeHandler`
/// is not tracked, so it may read and write anything.
///
/// ```swift
/// let token = withKeyValueObservation(of: { cart.items.count * price.value }, options: [.old, .new]) { change in
///     print("total \(change.oldValue!) → \(change.newValue!)")
/// }
/// cart.items.append("pen")  // prints "total 0 → 3"
/// ```
///
/// - Parameters:
///   - read: Reads the value; what it reads is what is observed.
///   - options: Which values the changes carry and which extra
///     notifications are sent, as for `observe`.
///   - tracking: How it reads again; see ``KeyValueTrackingOptions``.
///     Coalesced changes carry the value before the first of them as
///     their old value.
///   - isolation: The actor the closures are isolated to: the caller's.
///   - fileID: Where the call is, for ``KeyValueObservationGraph``.
///   - line: The line of the call, likewise.
///   - changeHandler: Called with each change.
/// - Returns: The token that keeps the observation alive.
@inlinable
public func withKeyValueObservation<Value>(
  of read: @escaping () -> Value,
  options: KeyValueObservingOptions = [],
  tracking: KeyValueTrackingOptions = [],
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  changeHandler: @escaping (KeyValueObservedChange<Value>) -> Void
) -> KeyValueObservation {
  trackedObservation(
    body: nil, read: { _, _ in read() }, options: options, tracking: tracking, isolation: isolation,
    site: RegistrationSite(fileID: fileID, line: line),
    // Made here, where `Value` is known: each change's typed work runs
    // specialised (see `DerivedObservation.changes()`).
    changes: DerivedObservation<Rerun, Value>.changes(), changeHandler: changeHandler
  )
}

/// The one path of both forms: a derived observation of what `read` reads
/// (with `body`, the closure form's closure, kept by the rerun), filed in
/// its rerun, which hosts it (see ``ObservationHost``). Inlinable, so
/// that what runs at each change — the read, the handler, `changes` — is
/// made where `Value` is known, and runs specialised; the rest is set up
/// once, in ``startTrackedObservation(rerun:read:options:changes:handler:initial:site:)``.
@inlinable
func trackedObservation<Value>(
  body: (() -> Void)?,
  read: @escaping DerivedObservation<Rerun, Value>.Reader,
  options: KeyValueObservingOptions,
  tracking: KeyValueTrackingOptions,
  isolation: (any Actor)?,
  site: RegistrationSite,
  changes: DerivedObservation<Rerun, Value>.Changes,
  changeHandler: ((KeyValueObservedChange<Value>) -> Void)?
) -> KeyValueObservation {
  let rerun = Rerun(body: body, tracking: tracking, isolation: isolation, site: site)
  // Coalesced changes carry the value the last run handed over as old:
  // the runs read new values for it even when the handler wants none.
  let lastValue = rerun.defers && options.contains(.old) ? LastValue<Value>() : nil
  let observedOptions = lastValue == nil ? options : options.union(.new)
  // The handler itself, not the optional, is captured: an optional
  // closure takes a larger context. With none (the closure form), a
  // handler that captures nothing needs no context at all. Bound with
  // `if let`, not mapped: a closure through `Optional.map` is called
  // through two reabstraction thunks at every change.
  let direct: (Rerun, KeyValueObservedChange<Value>) -> Void
  if let changeHandler {
    direct = { _, change in changeHandler(change) }
  } else {
    direct = { _, _ in }
  }
  return startTrackedObservation(
    rerun: rerun,
    read: read,
    options: observedOptions,
    changes: changes,
    handler: lastValue == nil
      ? direct
      : { _, change in
        guard let changeHandler, let lastValue else { return }
        guard !change.isPrior else { return changeHandler(change) }
        let old = lastValue.value.withLock { last in
          defer { last = change.newValue }
          return change.oldValue ?? last
        }
        let new = options.contains(.new) ? change.newValue : nil
        changeHandler(KeyValueObservedChange(kind: .setting, newValue: new, oldValue: old, isPrior: false))
      },
    initial: { value in
      lastValue?.value.withLock { $0 = value }
      guard let changeHandler else { return }
      sendInitial(options: options, isLive: true, value: value) { changeHandler($0) }
    },
    site: site
  )
}

/// What ``trackedObservation(body:read:options:tracking:isolation:site:changes:changeHandler:)``
/// sets up once: files the observation in `rerun`, its host, runs it a
/// first time (handing `initial` the value), and ends it at once,
/// reported, when it read nothing that can change.
@usableFromInline
func startTrackedObservation<Value>(
  rerun: Rerun,
  read: @escaping DerivedObservation<Rerun, Value>.Reader,
  options: KeyValueObservingOptions,
  changes: DerivedObservation<Rerun, Value>.Changes,
  handler: @escaping (Rerun, KeyValueObservedChange<Value>) -> Void,
  initial: (Value) -> Void,
  site: RegistrationSite
) -> KeyValueObservation {
  // Nested in another's run, its first run and its `.initial` handler
  // read for this observation, not for the outer one.
  let hidden = _KeyValueAccessTracking.suspendTracking()
  defer { _KeyValueAccessTracking.resumeTracking(hidden) }
  let storage = rerun.storage
  let observation = DerivedObservation<Rerun, Value>(
    root: rerun,
    storage: storage,
    filedUnder: \Rerun.self,
    slot: ObservationHost.observationSlot,
    read: read,
    options: options,
    hooks: ObservationHooks(source: .trackedClosure),
    rerun: rerun,
    changes: changes,
    handler: handler
  )
  let value = observation.start(root: rerun, constant: true, site: site)
  if observation.dependencyCount == 0 && !rerun.tracksObservation {
    reportProblem(
      .unobservableKeyPath,
      "withKeyValueObservation at \(site.description ?? "a call") read no observable property, so nothing can run it "
        + "again: it ran once and ended; read a property of a @KeyValueObservable or @Observable class in it"
    )
    storage.close()
  }
  if observation.isLive { initial(value) }
  return KeyValueObservation(RegistrationHandle(storage: storage, registration: .passUnretained(observation)))
}

/// The value a coalesced observation last handed over.
@usableFromInline
final class LastValue<Value>: @unchecked Sendable {
  // @unchecked Sendable: the value is behind its lock.
  @usableFromInline let value = LockedState<Value?>(nil)

  @usableFromInline
  init() {}
}
