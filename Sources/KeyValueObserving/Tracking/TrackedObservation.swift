/// The observation of a tracked value
/// (``withKeyValueObservation(of:options:tracking:isolation:fileID:line:changeHandler:)``):
/// its read and its handler, run through the one change path of derived
/// observations (see ``DerivedValueObservation``) by `changes`, made where
/// `Value` is known. (The closure form is ``TrackedClosure``.)
///
/// ```swift
/// let observation = TrackedObservation<Int>(
///     read: { cart.items.count }, handler: { print($0.newValue!) },
///     changes: TrackedObservation<Int>.changes(), options: .new, tracking: [],
///     defers: false, isolation: nil, site: site
/// )
/// ```
@usableFromInline
final class TrackedObservation<Value>: TrackedObservationBase, DerivedValueObservation, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base classes keep
  // safe. The closures run where the base class says.

  @usableFromInline typealias Root = Void

  /// What it reads is observed.
  @usableFromInline let read: () -> Value
  @usableFromInline let handler: (KeyValueObservedChange<Value>) -> Void
  private let changes: DerivedChanges<TrackedObservation>
  /// The value last read, for the old value of a change a freed object
  /// makes; only with `.deallocation` and `.old`.
  @usableFromInline let keptValue: KeptValue<Value>?

  /// An observation of what `read` reads, calling `handler` with its
  /// changes, which `changes` runs (made where `Value` is known).
  @usableFromInline
  init(
    read: @escaping () -> Value,
    handler: @escaping (KeyValueObservedChange<Value>) -> Void,
    changes: DerivedChanges<TrackedObservation>,
    options: KeyValueObservingOptions,
    tracking: KeyValueTrackingOptions,
    defers: Bool,
    isolation: (any Actor)?,
    site: RegistrationSite
  ) {
    self.read = read
    self.handler = handler
    self.changes = changes
    // A run that is not a did's — a scheduled one, or one a freed
    // object asks for — takes the value the last run read as its old one.
    let hears = options.contains(.deallocation)
    self.keptValue = (defers || hears) && options.contains(.old) ? KeptValue(weakly: hears) : nil
    super.init(options: options, tracking: tracking, defers: defers, isolation: isolation, site: site)
  }

  // MARK: The change path's requirements

  /// Calls the closure, untracked: the old value, at a will.
  @inlinable
  func currentValue(_ root: Void) -> Value {
    read()
  }

  /// Runs the closure as one run (``TrackedObservationBase/run(_:)``),
  /// tracking its reads, and registers with what it read.
  @inlinable
  func refresh(_ root: Void) -> Value {
    var value: Value? = nil
    trackRead { _ in run { value = read() } }
    return value.unsafelyUnwrapped
  }

  @inlinable @inline(__always)
  func deliver(_ change: KeyValueObservedChange<Value>, from root: Void) {
    handler(change)
  }

  override func dependencyWillChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    changes.change(self, sender, object, .will)
  }

  override func dependencyDidChange(from sender: _KeyValueRegistration, on object: AnyObject?) {
    changes.change(self, sender, object, .did)
  }

  override func dependencyFreed(_ registration: DependencyRegistration) {
    changes.change(self, registration, nil, .freed)
  }

  /// Runs the closure again, for a scheduled run: reads the value with
  /// tracking, re-registers, and hands the handler the value read, with
  /// the one the last run read as the old value when `.old` asks for it:
  /// coalesced changes carry the value before the first of them.
  override func runScheduled() {
    guard !isEnded else { return }
    let oldValue = options.contains(.old) ? keptValue?.value : nil
    let newValue = refresh(())
    keptValue?.keep(newValue)
    guard !isEnded else { return }
    handler(KeyValueObservedChange(kind: .setting, newValue: newValue, oldValue: oldValue, isPrior: false, trimmedTo: options))
  }
}
