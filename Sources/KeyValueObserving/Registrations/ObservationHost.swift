/// The observed object of an observation that has none of its own — a
/// tracked closure, a binding — so that it is filed, ended and named by a
/// token like every other: its token holds the host's storage and names
/// the one registration filed there. A tracked closure's host is its
/// ``Rerun``, a subclass, so that the closure needs no object of its own
/// to be filed.
///
/// The host has one key, ``observationSlot``, which no property backs: a
/// tracked closure's observation is filed in it, as a lone registration
/// in the storage's slot table, so that filing it makes no table of key
/// paths (see ``RareState``). It lives as long as that registration
/// (whose observation holds it), so its storage closes only when the
/// observation closes it: to end from inside (everything it read was
/// freed, an object it binds went), which also makes the token inactive.
@usableFromInline
class ObservationHost: KeyValueObservable, @unchecked Sendable {
  // @unchecked Sendable: not final (``Rerun`` is a host); the registrar
  // is atomic, and a subclass keeps its own state safe.
  private let registrar = _KeyValueObservationRegistrar()

  @usableFromInline
  init() {}

  @usableFromInline final var _$kvoObservedStorage: Unmanaged<_KeyValueObservationStorage>? { registrar.storage }

  /// The storage, its lock in an ordinary allocation: it is locked only
  /// to file, remove and close the one registration, never by a write.
  @usableFromInline final func _$kvoStorage() -> _KeyValueObservationStorage {
    registrar.makeStorage(for: self, ownsCacheLines: false)
  }

  /// The slot a tracked closure's observation is filed in.
  static let observationSlot = 0

  private static let keys = _KeyValueKeyTable(ObservationHost.self) {
    _ = $0.stored("observation", keyedByString: false)
  }

  @usableFromInline static var _$kvoKeys: _KeyValueKeyTable { keys }

  /// The host's storage, made now.
  final var storage: _KeyValueObservationStorage { _$kvoStorage() }

  /// Whether `storage` is a host's: its registrations are no object's own.
  static func hosts(_ storage: _KeyValueObservationStorage) -> Bool {
    storage.objectType is ObservationHost.Type
  }
}
