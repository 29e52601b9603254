// What the observed object's type says about its keys, through
// KeyValueObservingCustomization: declared dependencies and keys notified by
// hand.

extension _KeyValueObservationStorage {
  /// Whether the object's type declares dependencies for `keyPath`.
  @usableFromInline
  func hasDeclaredDependencies(_ keyPath: AnyKeyPath) -> Bool {
    guard let customization else { return false }
    return !customization.keyPathsAffectingValue(for: keyPath).isEmpty
  }

  /// Whether the setter of `slot` notifies by itself.
  @inlinable
  func notifiesAutomatically(slot: Int) -> Bool {
    notifiesEveryKey || !observedType.manuallyNotifiedSlots[slot]
  }
}
