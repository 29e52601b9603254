/// What a `@KeyValueObservable` class that declares `Observable` reports to
/// Swift Observation about one of its observable stored properties, so that
/// `withObservationTracking`, `Observations` and SwiftUI track it.
///
/// The macro gives such a class an `ObservationRegistrar` and its own
/// ``KeyValueObservable/_$kvoObservationEvent(_:slot:)``, one line that
/// hands each event to the registrar through the runtime, which names the
/// property by its key path (see ``ObservationReporter``); a mutation as a
/// whole (``KeyValueObservable/_$kvoObservedMutation(ofSlot:_:)``) is its
/// two events. Its getters call `trackedAccess`, which reports through that
/// member, and its setters `_notifyingTrackedSet`, which hands the object's
/// registrar to its storage, and the storage the will and the did to the
/// property's reporter, found by index (no call into the member); those of
/// a class that does not
/// declare `Observable` call `access` and `_notifyingSet`, whose overloads
/// for an `Observable` class report too (for one that is `Observable`
/// through a protocol the macro cannot see), so a class that is not pays
/// nothing. Every other change of a property — `setValue(_:forKey:)`, a
/// collection proxy's mutation, a manual will/did pair — reports through
/// the same member.
///
/// Not API.
public enum _KeyValueObservationEvent: Sendable {
  /// The property was read.
  case access
  /// The property is about to change.
  case willSet
  /// The property changed.
  case didSet
}
