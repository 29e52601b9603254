/// How a closure observed with
/// ``withKeyValueObservation(tracking:includingDeallocation:isolation:fileID:line:_:)`` runs again.
///
/// ```swift
/// // On the main actor: three writes in one job, one run after it.
/// let token = withKeyValueObservation(tracking: .coalesced) {
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

  /// Runs once after the job of the closure's actor that made the
  /// changes, on that actor, instead of once per change on the thread
  /// that makes it. <doc:ObservingClosures#Coalesced-runs> gives the rule,
  /// and what a closure isolated to no actor does.
  ///
  /// ```swift
  /// let token = withKeyValueObservation(tracking: .coalesced) { render(model) }
  /// ```
  public static let coalesced = KeyValueTrackingOptions(rawValue: 1 << 0)

  /// Tracks only `@KeyValueObservable` objects: each run skips Swift
  /// Observation's `withObservationTracking`, so a change of an
  /// `@Observable` class's property (one that does not use the macro)
  /// runs nothing, and each run costs less.
  ///
  /// ```swift
  /// let token = withKeyValueObservation(tracking: .skippingSwiftObservation) { label.text = model.title }
  /// ```
  public static let skippingSwiftObservation = KeyValueTrackingOptions(rawValue: 1 << 1)
}
