/// A derived observation with typed values: what the one change path (see
/// DerivedValueObservation+Change.swift) asks of a key path's observation
/// (``DerivedObservation``) and of a tracked closure's
/// (``TrackedObservation``).
///
/// Both classes are final and conform where their types are known, so
/// that the path, made into a ``DerivedChanges`` closure where the caller's
/// types are known, runs specialised, each requirement a direct call.
///
/// ```swift
/// let changes = DerivedObservation<Person, String>.changes()
/// changes.change(observation, sender, object, true)   // a will
/// ```
@usableFromInline
protocol DerivedValueObservation: DerivedObservationBase {
  /// What the value is read from: the observed object, or nothing (`Void`)
  /// for a tracked closure.
  associatedtype Root
  associatedtype Value

  /// What the value is read from, while it lives.
  var liveRoot: Root? { get }

  /// Reads the value without tracking.
  func currentValue(_ root: Root) -> Value

  /// Reads the value with tracking, and registers with what it depends on
  /// now.
  func refresh(_ root: Root) -> Value

  /// Whether the value still depends on what `sender` is registered with.
  func isDependency(_ sender: _KeyValueRegistration) -> Bool

  /// Whether `sender` is the registration where an observed chain ends
  /// (see ``DerivedObservation/chainEnd``).
  func isChainEnd(_ sender: _KeyValueRegistration) -> Bool

  /// The value read from `object`, where the chain ends, when it can be.
  func valueAtChainEnd(from sender: _KeyValueRegistration, on object: AnyObject?) -> Value?

  /// Hands `change` to the handler.
  func deliver(_ change: KeyValueObservedChange<Value>, from root: Root)

  /// When a change told now, on this thread, is read again.
  func whenToRun() -> RunTime

  /// Asks for one read, later, where the observation is isolated.
  func scheduleRun()

  /// The value last read, kept for the old value of a change that a freed
  /// object makes (see ``KeyValueObservingOptions/deallocation``): made
  /// only when the observation asks for both, `nil` otherwise.
  var keptValue: KeptValue<Value>? { get }
}

/// When a derived observation reads its value again after a change told
/// now, on this thread: at its did (``now``), once, later, on the actor a
/// tracked closure is isolated to (``later``), or not at all, for a change
/// a tracked closure makes while it runs (``never``).
@usableFromInline
enum RunTime {
  case now, later, never
}

/// What a dependency's registration tells a derived observation: a will,
/// a did, or that its object was freed.
@usableFromInline
enum DependencyEvent {
  case will, did, freed
}

/// The typed work of a dependency's will, did and freeing for one class
/// of derived observation, made by ``DerivedValueObservation/changes()``
/// where the caller's types are known: one closure, not one each, so that
/// it takes two words of every observation, not six.
@usableFromInline
struct DerivedChanges<Observation: DerivedValueObservation> {
  @usableFromInline let change: (Observation, _KeyValueRegistration, AnyObject?, DependencyEvent) -> Void

  @inlinable
  init(_ change: @escaping (Observation, _KeyValueRegistration, AnyObject?, DependencyEvent) -> Void) {
    self.change = change
  }
}

extension DerivedValueObservation {
  /// The closure that runs ``willChange(from:on:)``, ``didChange(from:on:)``
  /// and ``dependencyFreed(from:)``: specialised when the caller is.
  @inlinable
  static func changes() -> DerivedChanges<Self> {
    DerivedChanges { observation, sender, object, event in
      switch event {
      case .will: observation.willChange(from: sender, on: object)
      case .did: observation.didChange(from: sender, on: object)
      case .freed: observation.dependencyFreed(from: sender)
      }
    }
  }
}
