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

  init(forwardingTo observer: DerivedObservationBase, storage: _KeyValueObservationStorage, slot: Int) {
    self.storage = storage
    super.init(forwardingTo: observer, options: .prior, slot: slot)
  }

  /// The key it observes.
  var dependency: Dependency { Dependency(storage: storage, slot: slot) }

  /// Whether it observes `dependency`.
  func isSame(as dependency: Dependency) -> Bool {
    storage === dependency.storage && slot == dependency.slot
  }

  /// Removes it from its storage; at most once, by the observation that
  /// made it.
  func remove() {
    storage.remove(.passUnretained(self))
  }

  override var observerDescription: String { "dependency of \(observer.keyPathDescription)" }

  override var isListed: Bool { false }

  override func registrationEnded() {
    observer.dependencyEnded()
  }
}

/// The registrations of a derived observation with what its value depends
/// on, in the order its reads found them.
@usableFromInline typealias RegisteredDependencies = [DependencyRegistration]
