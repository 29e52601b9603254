/// The observed object of an observation that has none of its own — a
/// tracked closure, a binding — so that it is filed, ended and named by a
/// token like every other: its token holds the host's storage and names
/// the one registration filed there.
///
/// The host has no keys. It lives as long as that registration (whose
/// observation holds it), so its storage closes only when the observation
/// closes it: to end from inside (everything it read was freed, an object
/// it binds went), which also makes the token inactive.
@usableFromInline
final class ObservationHost: KeyValueObservable, Sendable {
  private let registrar = _KeyValueObservationRegistrar()

  @usableFromInline
  init() {}

  @usableFromInline var _$kvoObservedStorage: Unmanaged<_KeyValueObservationStorage>? { registrar.storage }

  @usableFromInline func _$kvoStorage() -> _KeyValueObservationStorage { registrar.makeStorage(for: self) }

  private static let keys = _KeyValueKeyTable(ObservationHost.self) { _ in }

  @usableFromInline static var _$kvoKeys: _KeyValueKeyTable { keys }

  /// The host's storage, made now.
  var storage: _KeyValueObservationStorage { _$kvoStorage() }

  /// Whether `storage` is a host's: its registrations are no object's own.
  static func hosts(_ storage: _KeyValueObservationStorage) -> Bool {
    storage.objectType == ObservationHost.self
  }
}
