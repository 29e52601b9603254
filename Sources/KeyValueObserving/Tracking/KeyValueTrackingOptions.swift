/// How a closure observed with
/// ``withKeyValueObservation(options:isolation:fileID:line:_:)`` runs again.
///
/// ```swift
/// // On the main actor: three writes in one turn, one run after it.
/// let token = withKeyValueObservation(options: .coalesced) {
///     label.text = "\(model.first) \(model.last), \(model.age)"
/// }
/// model.first = "Ada"; model.last = "Lovelace"; model.age = 36
/// ```
public struct KeyValueTrackingOptions: OptionSet, Sendable, Hashable {
  public let rawValue: Int

  /// A set made of the options in `rawValue`.
  ///
  /// ```swift
  /// let options = KeyValueTrackingOptions(rawValue: 1)  // .coalesced
  /// ```
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Runs once after the current turn of the actor the closure is isolated
  /// to, for every change made until then, instead of once per change on
  /// the thread that makes it. The run is on that actor whichever thread
  /// made the changes, so UI code is safe from a change made anywhere.
  ///
  /// A closure isolated to no actor has no turn to wait for: the option is
  /// refused with a ``KeyValueObservingDiagnostic/Kind/coalescingWithoutActor``
  /// report, and the closure runs at each change.
  ///
  /// ```swift
  /// let token = withKeyValueObservation(options: .coalesced) { render(model) }
  /// ```
  public static let coalesced = KeyValueTrackingOptions(rawValue: 1 << 0)

  /// Tracks only `@KeyValueObservable` objects: each run skips Swift
  /// Observation's `withObservationTracking`, about an eighth of what a
  /// run costs, so a change of an `@Observable` class's property
  /// (one that does not use the macro) runs nothing.
  ///
  /// ```swift
  /// let token = withKeyValueObservation(options: .keyValueOnly) { label.text = model.title }
  /// ```
  public static let keyValueOnly = KeyValueTrackingOptions(rawValue: 1 << 1)

  /// Runs again when a `@KeyValueObservable` object the last run read is
  /// freed — the object of a `weak` link, zeroed with no setter —, as
  /// ``KeyValueObservingOptions/deallocation`` makes a freed object a
  /// change for `observe`. Off by default: a freed object changes nothing
  /// a setter announced.
  ///
  /// ```swift
  /// let token = withKeyValueObservation(options: .deallocation) {
  ///     label.text = cell.item?.name ?? "—"  // "—" once the item is freed
  /// }
  /// ```
  public static let deallocation = KeyValueTrackingOptions(rawValue: 1 << 2)
}
