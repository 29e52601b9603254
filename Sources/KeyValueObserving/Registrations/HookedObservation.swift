/// A closure registration with hooks: who it says observes (so that
/// ``KeyValueObservable/observationInfo`` names a controller rather than a
/// closure), and what to do when it ends (so that an async sequence can
/// finish, or a queue drop what it still holds).
@usableFromInline
final class HookedClosureRegistration<Object: AnyObject, Value>: _KeyValueHandlerRegistration<Value>,
  @unchecked Sendable
{
  // @unchecked Sendable: immutable apart from what the base class guards.
  let hooks: ObservationHooks

  @usableFromInline
  init(
    options: KeyValueObservingOptions,
    slot: Int,
    hooks: ObservationHooks,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    self.hooks = hooks
    super.init(options: options, slot: slot, handler: handler)
  }

  override var observerDescription: String {
    hooks.source.description(closure: "closure (\(Object.self), KeyValueObservedChange<\(Value.self)>)")
  }

  override var observerSource: ObserverSource { hooks.source }

  override func registrationEnded() {
    hooks.ended?()
  }
}
