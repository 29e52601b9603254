/// The registration that files a derived observation under its key path in
/// the observed object's storage.
///
/// It is what the observation's token names: invalidating the token removes
/// it, and the observed object's deinit closes the storage with it; either
/// way ``registrationEnded()`` ends the observation. Manual
/// `willChangeValue`/`didChangeValue` on the key path reach the observation
/// through it.
final class DerivedAnchor: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let observer: DerivedKeyObservation
  let keyPath: AnyKeyPath

  init(observing observer: DerivedKeyObservation, keyPath: AnyKeyPath, options: KeyValueObservingOptions) {
    self.observer = observer
    self.keyPath = keyPath
    super.init(options: options, slot: Self.keyPathSlot, forwards: true)
  }

  override var anchorKeyPath: AnyKeyPath? { keyPath }

  override var keyDescription: String? { observer.keyDescription }

  override var observerDescription: String { observer.handlerDescription }

  override func registrationEnded() {
    observer.end()
  }

  override func forwardChange(isPrior: Bool) {
    if isPrior {
      observer.dependencyWillChange()
    } else {
      observer.dependencyDidChange()
    }
  }
}

/// A derived observation's registration with one key it depends on: it asks
/// for the will (a prior notification, so that the observation can read the
/// old value and tell nested changes apart) and the did of every change of
/// that key, without its values.
final class DependencyRegistration: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let observer: DerivedKeyObservation

  init(forwardingTo observer: DerivedKeyObservation, slot: Int) {
    self.observer = observer
    super.init(options: .prior, slot: slot, forwards: true)
  }

  override var observerDescription: String { "dependency of \(observer.keyDescription)" }

  override func forwardChange(isPrior: Bool) {
    if isPrior {
      observer.dependencyWillChange()
    } else {
      observer.dependencyDidChange()
    }
  }
}
