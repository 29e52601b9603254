/// A registration that hands the will and did of each change to a derived
/// observation instead of typed values.
class ForwardingRegistration: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let observer: DerivedObservationBase

  init(forwardingTo observer: DerivedObservationBase, options: KeyValueObservingOptions, slot: Int) {
    self.observer = observer
    super.init(options: options, slot: slot, receiver: .forwarding)
  }

  final override func forwardChange(isPrior: Bool, from object: AnyObject?) {
    if isPrior {
      observer.dependencyWillChange(from: self, on: object)
    } else {
      observer.dependencyDidChange(from: self, on: object)
    }
  }
}

/// The registration that files a derived observation under its key path in
/// the observed object's storage.
///
/// It is what the observation's token names: invalidating the token removes
/// it, and the observed object's deinit closes the storage with it; either
/// way ``registrationEnded()`` ends the observation. Manual
/// `willChangeValue`/`didChangeValue` on the key path reach the observation
/// through it.
final class DerivedAnchor: ForwardingRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let keyPath: AnyKeyPath

  init(observing observer: DerivedObservationBase, keyPath: AnyKeyPath, options: KeyValueObservingOptions) {
    self.keyPath = keyPath
    super.init(forwardingTo: observer, options: options, slot: Self.keyPathSlot)
  }

  override var anchorKeyPath: AnyKeyPath? { keyPath }

  override var keyDescription: String? { observer.keyDescription }

  override var dependencyDescriptions: [String] { observer.dependencyDescriptions }

  override var observerDescription: String { observer.handlerDescription }

  override var observerSource: ObserverSource { observer.observerSource }

  override func registrationEnded() {
    observer.end()
  }
}

/// A derived observation's registration with one key it depends on: it asks
/// for the will (a prior notification, so that the observation can read the
/// old value and tell nested changes apart) and the did of every change of
/// that key, without its values.
final class DependencyRegistration: ForwardingRegistration, @unchecked Sendable {
  // @unchecked Sendable: no state of its own; the base class's is guarded.
  init(forwardingTo observer: DerivedObservationBase, slot: Int) {
    super.init(forwardingTo: observer, options: .prior, slot: slot)
  }

  override var observerDescription: String { "dependency of \(observer.keyDescription)" }

  override var isListed: Bool { false }

  override func registrationEnded() {
    observer.dependencyEnded()
  }
}
