/// The observation of ``withKeyValueObservation(tracking:includingDeallocation:isolation:fileID:line:_:)``'s
/// closure: the closure is its read, and nothing is handed a value. Not
/// generic, so that its change path (see ``DerivedValueObservation``) is
/// compiled specialised here, with no closure of its own to run it and no
/// handler: a closure over a few keys costs one object beside their
/// registrations (the value form is ``TrackedObservation``).
///
/// ```swift
/// let closure = TrackedClosure(read: { label.text = model.name }, tracking: [], options: [], defers: false, isolation: nil, site: site)
/// let token = startTrackedObservation(closure) { _ in }
/// ```
@usableFromInline
final class TrackedClosure: TrackedObservationBase, DerivedValueObservation, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base classes keep
  // safe. The closure runs where the base class says.

  @usableFromInline typealias Root = Void
  @usableFromInline typealias Value = Void

  /// The closure: what it reads is observed.
  private let read: () -> Void

  /// An observation of what `read` reads, running it again after each
  /// change as `tracking` says, and after a freed object with
  /// `options` ``KeyValueObservingOptions/deallocation`` (its only option).
  init(
    read: @escaping () -> Void,
    tracking: KeyValueTrackingOptions,
    options: KeyValueObservingOptions,
    defers: Bool,
    isolation: (any Actor)?,
    site: RegistrationSite
  ) {
    self.read = read
    super.init(options: options, tracking: tracking, defers: defers, isolation: isolation, site: site)
  }

  // MARK: The change path's requirements

  /// Never asked: the closure form takes neither old values nor priors.
  @usableFromInline func currentValue(_ root: Void) {}

  /// Runs the closure as one run (``TrackedObservationBase/run(_:)``),
  /// tracking its reads, and registers with what it read.
  @usableFromInline func refresh(_ root: Void) {
    trackRead { _ in run(read) }
  }

  @usableFromInline func deliver(_ change: KeyValueObservedChange<Void>, from root: Void) {}

  /// Never kept: the closure form has no value.
  @usableFromInline var keptValue: KeptValue<Void>? { nil }

  override func dependencyWillChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    willChange(from: sender, on: object)
  }

  override func dependencyDidChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    didChange(from: sender, on: object)
  }

  override func dependencyFreed(_ registration: DependencyRegistration) {
    dependencyFreed(from: registration)
  }

  /// Runs the closure again, for a scheduled run.
  override func runScheduled() {
    guard !isEnded else { return }
    refresh(())
  }
}
