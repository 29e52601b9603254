/// The observed object of a binding, which has none of its own, so that
/// it is filed, ended and named by a token like every other observation:
/// its token holds the host's storage and names the binding's anchor filed
/// there (see ``BindingAnchor``). It lives as long as the binding, so its
/// storage closes only when the binding closes it: to end from inside (an
/// object it binds went), which also makes the token inactive.
///
/// (A tracked closure needs no host: its token owns its observation; see
/// ``TrackedObservationBase``.)
///
/// ```swift
/// let host = ObservationHost()
/// _ = host.storage.add(anchor)
/// let token = KeyValueObservation(RegistrationHandle(storage: host.storage, registration: .passUnretained(anchor)))
/// ```
@usableFromInline
final class ObservationHost: KeyValueObservable, @unchecked Sendable {
  // @unchecked Sendable: the registrar is atomic.
  private let registrar = _KeyValueObservationRegistrar()

  @usableFromInline
  init() {}

  @usableFromInline var _$kvoObservedStorage: Unmanaged<_KeyValueObservationStorage>? { registrar.storage }

  /// The storage, its lock in an ordinary allocation: it is locked only
  /// to file, remove and close the one registration, never by a write.
  @usableFromInline func _$kvoStorage() -> _KeyValueObservationStorage {
    registrar.makeStorage(for: self, ownsCacheLines: false)
  }

  /// No keys: what is filed here is filed under a key path.
  private static let keys = _KeyValueKeyTable(ObservationHost.self) { _ in }

  @usableFromInline static var _$kvoKeys: _KeyValueKeyTable { keys }

  /// The host's storage, made now.
  var storage: _KeyValueObservationStorage { _$kvoStorage() }
}
