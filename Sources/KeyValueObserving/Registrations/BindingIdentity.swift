/// What a binding says of itself to ``KeyValueObservationGraph`` and
/// ``KeyValueObservable/observationInfo``.
///
/// Not API; `package` because ``ObserverSource`` names it.
@usableFromInline
package protocol BindingIdentity: AnyObject, Sendable {
  /// `binding Person.nickname ⇄ Field.text`.
  var description: String { get }
  /// The storages of the bound objects that are observable and alive.
  func boundStorages() -> [_KeyValueObservationStorage]
}
