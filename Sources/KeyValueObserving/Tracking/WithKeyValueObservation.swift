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
///   - tracking: How it runs again; see ``KeyValueTrackingOptions``.
///   - includingDeallocation: Whether a freed `@KeyValueObservable`
///     object the last run read, such as a `weak` link's, runs it again,
///     as ``KeyValueObservingOptions/deallocation`` makes a freed object a
///     change for `observe`. Off by default: no setter ran.
///   - isolation: The actor `apply` is isolated to: the caller's, which
///     Swift passes for you.
///   - fileID: Where the call is, for ``KeyValueObservationGraph``.
///   - line: The line of the call, likewise.
///   - apply: What to run; what it reads is what is observed.
/// - Returns: The token that keeps the observation alive.
public func withKeyValueObservation(
  tracking: KeyValueTrackingOptions = [],
  includingDeallocation: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  _ apply: @escaping () -> Void
) -> KeyValueObservation {
  let site = RegistrationSite(fileID: fileID, line: line)
  let defers = TrackedObservationBase.defers(tracking, isolation: isolation, site: site)
  let closure = TrackedClosure(
    read: apply, tracking: tracking, options: includingDeallocation ? .deallocation : [],
    defers: defers, isolation: isolation, site: site
  )
  return startTrackedObservation(closure) { _ in }
}

/// Observes the value `read` returns: calls `changeHandler` after each
/// change of anything `read` read, with the value's own old and new values,
/// until the returned token is invalidated or released.
///
/// `read` is tracked as ``withKeyValueObservation(tracking:includingDeallocation:isolation:fileID:line:_:)``
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
///     notifications are sent, as for `observe`; with
///     ``KeyValueObservingOptions/deallocation``, a freed object `read`
///     read through is a change.
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
    read: read, options: options, tracking: tracking, isolation: isolation,
    site: RegistrationSite(fileID: fileID, line: line),
    // Made here, where `Value` is known: each change's typed work runs
    // specialised (see `DerivedValueObservation.changes()`).
    changes: TrackedObservation<Value>.changes(), changeHandler: changeHandler
  )
}

/// The value form's tracked observation of what `read` reads. Inlinable,
/// so that what runs at each change — the read, the handler, `changes` —
/// is made where `Value` is known, and runs specialised; the rest is set
/// up once, in ``startTrackedObservation(_:initial:)``.
@inlinable
func trackedObservation<Value>(
  read: @escaping () -> Value,
  options: KeyValueObservingOptions,
  tracking: KeyValueTrackingOptions,
  isolation: (any Actor)?,
  site: RegistrationSite,
  changes: DerivedChanges<TrackedObservation<Value>>,
  changeHandler: @escaping (KeyValueObservedChange<Value>) -> Void
) -> KeyValueObservation {
  let defers = TrackedObservationBase.defers(tracking, isolation: isolation, site: site)
  let observation = TrackedObservation(
    read: read,
    handler: changeHandler,
    changes: changes,
    options: options,
    tracking: tracking,
    defers: defers,
    isolation: isolation,
    site: site
  )
  return startTrackedObservation(observation) { value in
    sendInitial(options: options, isLive: true, value: value) { changeHandler($0) }
  }
}

/// What both forms set up once: runs `observation` a first time (handing
/// `initial` the value), and ends it at once, reported, when it read
/// nothing that can change; returns the token that owns it.
@usableFromInline
func startTrackedObservation<Observation: TrackedObservationBase & DerivedValueObservation>(
  _ observation: Observation,
  initial: (Observation.Value) -> Void
) -> KeyValueObservation where Observation.Root == Void {
  // Nested in another's run, its first run and its `.initial` handler
  // read for this observation, not for the outer one.
  let hidden = _KeyValueAccessTracking.suspendTracking()
  defer { _KeyValueAccessTracking.resumeTracking(hidden) }
  let value = observation.refresh(())
  observation.keptValue?.keep(value)
  if observation.dependencyCount == 0 && !observation.tracksObservation {
    reportProblem(
      .unobservableKeyPath,
      "withKeyValueObservation at \(observation.site.description ?? "a call") read no observable property, so "
        + "nothing can run it again: it ran once and ended; read a property of a @KeyValueObservable or "
        + "@Observable class in it"
    )
    observation.end()
  }
  if !observation.isEnded { initial(value) }
  return KeyValueObservation(owning: observation)
}
