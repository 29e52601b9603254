/// A closure registration that says who observes: what a controller's
/// typed observations are, so that ``KeyValueObservable/observationInfo``
/// names the controller rather than a closure.
final class DescribedClosureRegistration<Object: AnyObject, Value>: _KeyValueValueRegistration<Value>,
  @unchecked Sendable
{
  // @unchecked Sendable: immutable apart from what the base class guards.
  let handler: (Object, KeyValueObservedChange<Value>) -> Void
  let describedObserver: String

  init(
    options: KeyValueObservingOptions,
    slot: Int,
    describedAs describedObserver: String,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    self.handler = handler
    self.describedObserver = describedObserver
    super.init(options: options, slot: slot)
  }

  override func deliver(_ change: KeyValueObservedChange<Value>, from object: AnyObject) {
    // Slot lists hold only registrations made on their own object.
    handler(unsafeDowncast(object, to: Object.self), change)
  }

  override var observerDescription: String { describedObserver }
}

extension KeyValueObservable {
  /// ``observe(_:options:changeHandler:)``, with the observer described as
  /// `observer` in ``observationInfo``.
  func observe<Value>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions,
    describedAs observer: String,
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> KeyValueObservation {
    let storage = _$kvoStorage()
    guard let slot = Self._$kvoSlot(for: keyPath), !storage.hasDeclaredDependencies(keyPath) else {
      let observation = DerivedObservation(
        root: self,
        storage: storage,
        filedUnder: keyPath,
        keyDescription: nil,
        read: { root, keys in
          if storage.customization != nil { keys.append(ReadKey(object: root, keyPath: keyPath)) }
          return root[keyPath: keyPath]
        },
        options: options,
        handler: changeHandler,
        describeHandler: { observer }
      )
      let (anchor, value) = observation.start(root: self)
      if options.contains(.initial) && anchor.isLive {
        changeHandler(self, KeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? value : nil))
      }
      return KeyValueObservation(storage: storage, registration: anchor)
    }
    let registration = DescribedClosureRegistration<Self, Value>(
      options: options,
      slot: slot,
      describedAs: observer,
      handler: changeHandler
    )
    // `self` is alive, so its storage is open and the addition succeeds.
    _ = storage.add(registration)
    if options.contains(.initial) && registration.isLive {
      let value = self[keyPath: keyPath]
      changeHandler(self, KeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? value : nil))
    }
    return KeyValueObservation(storage: storage, registration: registration)
  }
}
