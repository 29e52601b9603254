/// A derived observation's registration with one key it depends on: it asks
/// for the will (a prior notification, so that the observation can read the
/// old value and tell nested changes apart) and the did of every change of
/// that key, without its values.
final class DependencyRegistration: ForwardingRegistration, @unchecked Sendable {
  // @unchecked Sendable: no state of its own; the base class's is guarded.
  init(forwardingTo observer: DerivedObservationBase, slot: Int) {
    super.init(forwardingTo: observer, options: .prior, slot: slot)
  }

  override var observerDescription: String { "dependency of \(observer.keyPathDescription)" }

  override var isListed: Bool { false }

  override func registrationEnded() {
    observer.dependencyEnded()
  }
}
