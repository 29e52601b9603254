/// A token for one registration: keep it to keep observing.
///
/// Releasing the token ends the registration, and so does ``invalidate()``.
/// The token holds neither the observed object nor the observer: an object
/// that observes itself through a token it stores is freed normally. When the
/// observed object deinitialises first, its registrations end silently and
/// the token stays valid and inert.
///
/// ```swift
/// final class Badge {
///     private var token: KeyValueObservation?
///
///     init(person: Person) {
///         token = person.observe(\.name, options: .new) { _, change in
///             print("now \(change.newValue!)")
///         }
///     }
/// }
/// ```
public final class KeyValueObservation: Sendable {
  private let storage: _KeyValueObservationStorage?
  private let registration: _KeyValueRegistration?

  init(storage: _KeyValueObservationStorage?, registration: _KeyValueRegistration?) {
    self.storage = storage
    self.registration = registration
  }

  /// Ends the registration: no callback starts after this returns on the
  /// calling thread, and none of this change is delivered if it is called
  /// from an earlier observer of the same change.
  ///
  /// Idempotent, safe from any thread, and safe inside the registration's own
  /// callback.
  ///
  /// ```swift
  /// let token = person.observe(\.age) { _, _ in print("changed") }
  /// token.invalidate()
  /// person.age += 1  // prints nothing
  /// token.invalidate()  // harmless
  /// ```
  public func invalidate() {
    guard let storage, let registration else { return }
    storage.remove(registration)
  }

  /// Whether the registration still delivers: `false` after
  /// ``invalidate()`` and after the observed object deinitialised.
  ///
  /// ```swift
  /// var person: Person? = Person()
  /// let token = person!.observe(\.age) { _, _ in }
  /// person = nil
  /// assert(!token.isActive)
  /// ```
  public var isActive: Bool {
    registration?.isLive ?? false
  }

  deinit {
    invalidate()
  }
}
