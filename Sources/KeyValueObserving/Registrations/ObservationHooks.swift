/// What a hooked observation says about itself and does when it ends.
///
/// Not API; usable from inlinable code so that the async sequences can be
/// specialised for the caller's types, and `package` so that the Combine
/// module's subscriptions register with hooks too.
@usableFromInline
package struct ObservationHooks {
  /// Who observes, for ``KeyValueObservable/observationInfo`` and
  /// ``KeyValueObservationGraph``.
  let source: ObserverSource
  /// Called once, with no lock held, when the registration ends:
  /// invalidated, or its object deinitialised.
  var ended: (() -> Void)?

  @usableFromInline
  package init(source: ObserverSource = .closure, ended: (() -> Void)? = nil) {
    self.source = source
    self.ended = ended
  }
}

extension KeyValueObservable {
  /// A registration of `handler` with `hooks`, made where the types are
  /// known: no metadata to look up at run time.
  @inlinable
  func hookedRegistration<Value>(
    options: KeyValueObservingOptions,
    slot: Int,
    hooks: ObservationHooks,
    handler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> _KeyValueValueRegistration<Value> {
    HookedClosureRegistration<Self, Value>(options: options, slot: slot, hooks: hooks, handler: handler)
  }
}
