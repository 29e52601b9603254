/// The registration that files a derived observation under its key path in
/// the observed object's storage.
///
/// It is what the observation's token names: invalidating the token removes
/// it, and the observed object's deinit closes the storage with it; either
/// way ``registrationEnded()`` ends the observation. Manual
/// `willChangeValue`/`didChangeValue` on the key path reach the observation
/// through it.
///
/// Filed under its key path, or — a tracked closure's, in its host — in
/// the host's one slot (see ``ObservationHost``).
final class DerivedAnchor: ForwardingRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let keyPath: AnyKeyPath

  init(
    observing observer: DerivedObservationBase,
    keyPath: AnyKeyPath,
    options: KeyValueObservingOptions,
    slot: Int = keyPathSlot
  ) {
    self.keyPath = keyPath
    super.init(forwardingTo: observer, options: options, slot: slot)
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
