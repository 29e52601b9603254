// Where an observed chain ends (see `DerivedObservation.chainEnd`): a
// change of the last link's key, made on the object the chain was last
// found to end at, reads the value from that object.

extension DerivedObservation {
  /// Whether `sender` is the registration where the chain ends; forgets
  /// that registration when another dependency changes.
  @inlinable @inline(__always)
  final func isChainEnd(_ sender: _KeyValueRegistration) -> Bool {
    guard mayBeChain else { return false }
    let end = chainEnd.load(ordering: .acquiring)
    if end == 0 { return false }
    if end == UInt(bitPattern: Unmanaged.passUnretained(sender).toOpaque()) { return true }
    forgetChainEnd()
    return false
  }

  /// The value read from `object`, the object of `sender`, the
  /// registration where the chain ends (see ``chainEnd``).
  @inlinable
  final func valueAtChainEnd(from sender: _KeyValueRegistration, on object: AnyObject?) -> Value? {
    guard let object, let chain = foundChain.loadObject(StoredChain<Value>.self, ordering: .acquiring) else { return nil }
    return chain._withUnsafeGuaranteedRef { chain in
      guard chain.isLastLink(sender.slot, of: object) else { return nil }
      return chain.value(object)
    }
  }

  /// Remembers the registration at `last` as where the chain ends, if it
  /// is still the last dependency: a read that another thread's
  /// re-registration overtook must not bring back an end that the
  /// registration's removal forgot.
  @usableFromInline
  final func rememberChainEnd(_ last: UnsafeMutableRawPointer) {
    ifLastDependency(is: last) { chainEnd.store(UInt(bitPattern: last), ordering: .releasing) }
  }

  /// Forgets where the chain ends.
  @usableFromInline
  final func forgetChainEnd() {
    chainEnd.store(0, ordering: .releasing)
  }
}
