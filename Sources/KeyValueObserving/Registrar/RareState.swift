/// The part of a storage's state that most observed objects never need,
/// made on its first use so that the first observation of an object stays
/// small: anchors of derived observations, classic observers, slots past
/// the 63rd, and lists retired while changes read them.
///
/// Reached only through the storage's `withState`, under its lock.
final class RareState {
  /// Registrations filed under a key path that is not a slot: the anchors
  /// of derived observations (computed keys, chains).
  var keyed: [AnyKeyPath: SlotRegistrations] = [:]
  /// How many slots from 63 on have registrations (they share bit 63 of
  /// the observed-slot mask).
  var highSlotsObserved = 0
  /// Lists replaced, and lone registrations removed, while a change may
  /// still be reading them, kept until none is under way.
  var retired: [AnyObject] = []
  /// The registrations of classic observers, by observer, for
  /// `removeObserver` to find (their lists hold them too).
  var classic = ClassicRegistrations()
  /// Swift Observation's registrar of an object that is `Observable`
  /// through a protocol the macro could not see (see
  /// `Observation/ObservableThroughProtocol.swift`): an
  /// `ObservationRegistrar`, held as `Any` because the type needs macOS 14
  /// and iOS 17.
  var observationRegistrar: Any?
}
