/// A registration `register` made, named by the observed object's storage
/// and the registration's address: what a ``KeyValueObservation`` holds,
/// for library code that keeps the pair in state of its own instead of in
/// a token object (a Combine subscription, under its lock).
///
/// Holds the storage strongly and the registration not at all: the
/// storage's slot list owns the registration until ``remove()``, or until
/// the object deinitialises and closes the storage, after which `remove()`
/// does not touch the address.
///
/// Not API.
@usableFromInline
package struct RegistrationHandle {
  /// The observed object's storage; `nil` when nothing was registered.
  @usableFromInline let storage: _KeyValueObservationStorage?
  /// The registration; `nil` when nothing was registered.
  @usableFromInline let registration: Unmanaged<_KeyValueRegistration>?

  @inlinable
  init(storage: __owned _KeyValueObservationStorage?, registration: Unmanaged<_KeyValueRegistration>?) {
    self.storage = storage
    self.registration = registration
  }

  /// Ends the registration and releases its callback (see
  /// ``KeyValueObservation/invalidate()``). Call it at most once: the
  /// caller decides which thread does, as a token does with its atomic word.
  @usableFromInline
  package func remove() {
    // Called on the borrowed storage: no retain of it for the call.
    guard let registration else { return }
    storage?.remove(registration)
  }
}
