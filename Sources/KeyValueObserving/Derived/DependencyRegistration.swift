/// A derived observation's registration with one key it depends on: it asks
/// for the will (a prior notification, so that the observation can read the
/// old value and tell nested changes apart) and the did of every change of
/// that key, without its values.
///
/// The observation holds its registrations (see ``RegisteredDependencies``)
/// as well as their storages' slot lists, until it removes them, so that
/// its list of them is also the list a verifying read checks its reads
/// against: each names its key, the storage and the slot, itself. The
/// cycle through the observation, which each holds, ends when the
/// observation drops them: when a read no longer needs them, or when it
/// ends.
@usableFromInline
final class DependencyRegistration: ForwardingRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.

  /// The storage of the object whose key it observes, which its slot list
  /// is in. Holding it keeps its identity from being reused; the storage
  /// holds this registration only until it removes it or closes.
  @usableFromInline let storage: _KeyValueObservationStorage
  /// The key path it is filed under, for a computed property's
  /// announcements (see ``Dependency/keyPath``); `nil` for a slot.
  private let keyPath: AnyKeyPath?

  /// `walkedByChain`: whether the observation may read the key by walking
  /// a chain (see ``_KeyValueRegistration/walkedByChain``).
  init(forwardingTo observer: DerivedObservationBase, dependency: Dependency, walkedByChain: Bool) {
    self.storage = dependency.storage
    self.keyPath = dependency.keyPath
    super.init(forwardingTo: observer, options: .prior, slot: dependency.slot, walkedByChain: walkedByChain)
  }

  /// The key it observes.
  var dependency: Dependency { Dependency(storage: storage, slot: slot, keyPath: keyPath) }

  /// Whether it observes `dependency`.
  func isSame(as dependency: Dependency) -> Bool {
    storage === dependency.storage && slot == dependency.slot && keyPath == dependency.keyPath
  }

  override var anchorKeyPath: AnyKeyPath? { keyPath }

  override var keyDescription: String? { keyPath == nil ? nil : dependency.keyName }

  /// Removes it from its storage; at most once, by the observation that
  /// made it.
  func remove() {
    storage.remove(.passUnretained(self))
  }

  override var observerDescription: String { "dependency of \(observer.keyPathDescription)" }

  override var isListed: Bool { false }

  override func registrationEnded() {
    observer.dependencyEnded(freed: nil)
  }

  override func registrationClosed() {
    observer.dependencyEnded(freed: self)
  }
}
