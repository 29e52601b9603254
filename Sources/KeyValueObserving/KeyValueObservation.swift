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
  /// The observed object's storage, retained by the token (released in
  /// `deinit`): held unmanaged so that `invalidate()` reaches it without a
  /// retain and release of its own.
  private let storage: Unmanaged<_KeyValueObservationStorage>?

  /// The address of the registration while it is registered, zero once this
  /// token invalidated it. The storage owns the registration; the token only
  /// names it, so the first `invalidate()` can hand it back exactly once.
  /// Cleared under the storage's lock, which decides which of two racing
  /// `invalidate()` calls removes the registration.
  private let registration: AtomicUInt

  /// A token for what `handle` names; the token takes over its reference
  /// to the storage. A token for nothing is inert from the start.
  @usableFromInline
  init(_ handle: __owned RegistrationHandle) {
    if let storage = handle.storage {
      self.storage = Unmanaged.passRetained(storage)
    } else {
      self.storage = nil
    }
    if let registration = handle.registration {
      self.registration = AtomicUInt(UInt(bitPattern: registration.toOpaque()))
    } else {
      self.registration = AtomicUInt(0)
    }
  }

  /// Ends the registration and releases its callback.
  ///
  /// Once this returns, a notification that reaches the registration skips it —
  /// one under way on this thread (invalidating from an earlier observer of
  /// the same change) included. On another thread, a notification that reached
  /// it just before may still finish its call. The callback and what it
  /// captures are released as soon as no notification holds them, which breaks
  /// the retain cycle of a closure that captures the token's owner.
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
    guard let storage, registration.load(ordering: .relaxed) != 0 else { return }
    storage._withUnsafeGuaranteedRef { $0.remove(claimingFrom: registration) }
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
    guard let storage, registration.load(ordering: .acquiring) != 0 else { return false }
    return !storage._withUnsafeGuaranteedRef { $0.isClosed }
  }

  deinit {
    // Nothing else can reach a token in its deinit: a plain load tells
    // whether `invalidate()` already ran.
    if registration.load(ordering: .relaxed) != 0 {
      invalidate()
    }
    storage?.release()
  }
}
