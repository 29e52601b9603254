// Dependencies that may be stale (see `DerivedObservation.dependenciesMayBeStale`):
// a dependency ended without a change — a `weak` link's object freed — so
// the observation may still be registered with objects its value no longer
// reads. The next will checks before it counts.

extension DerivedObservation {
  /// Whether the value still depends on what `sender` is registered with.
  /// Asked at a will, and answered without a read unless a dependency
  /// ended since the last will: then the value is read again and the
  /// observation re-registered with what it reads now. A freed `weak`
  /// link ends its object's registrations without a change, so that the
  /// objects past it — alive elsewhere — are still registered with until
  /// this read; their changes are not changes of the value, which reads
  /// `nil` at the freed link, and are not notified.
  @inlinable @inline(__always)
  final func isDependency(_ sender: _KeyValueRegistration) -> Bool {
    guard dependenciesMayBeStale.load(ordering: .relaxed) else { return true }
    return recheckDependency(sender)
  }

  /// ``isDependency(_:)`` after a dependency ended.
  @usableFromInline
  final func recheckDependency(_ sender: _KeyValueRegistration) -> Bool {
    guard dependenciesMayBeStale.exchange(false, ordering: .acquiring), !isEnded, let root = root.object else {
      return true
    }
    _ = refresh(root)
    return sender.isLive
  }
}
