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
  ///
  /// With no storage and ``ownedBit`` set, the address of a tracked
  /// closure's observation, which is filed in no storage: the token owns
  /// it (retained) until it ends. Its `end()` clears the word, under the
  /// observation's lock (see ``DerivedObservationBase/end()``), and lets
  /// go of the token's reference — unless an `invalidate()` marked the
  /// word with ``endingBit`` first: that call ends it and lets go itself,
  /// and any other waits until the word is clear.
  private let registration: AtomicUInt

  /// Marks an observation the token owns; an object's address never has
  /// it.
  static let ownedBit: UInt = 1

  /// Marks an owned observation an `invalidate()` is ending.
  static let endingBit: UInt = 2

  /// Both marks.
  static let ownedBits: UInt = ownedBit | endingBit

  /// A token for what `handle` names; the token takes over its reference
  /// to the storage. A token for nothing is inert from the start.
  @usableFromInline
  init(_ handle: __owned RegistrationHandle) {
    if let storage = handle.storage {
      self.storage = Unmanaged.passRetained(storage)
    } else {
      self.storage = nil
    }
    if let registration = handle.registration, handle.storage != nil {
      self.registration = AtomicUInt(UInt(bitPattern: registration.toOpaque()))
    } else {
      self.registration = AtomicUInt(0)
    }
  }

  /// A token that owns `observation`, a tracked closure's, and ends it
  /// when invalidated or released; inert when it ended already.
  init(owning observation: DerivedObservationBase) {
    storage = nil
    let retained = Unmanaged.passRetained(observation)
    registration = AtomicUInt(UInt(bitPattern: retained.toOpaque()) | Self.ownedBit)
    if !observation.attachToken(word: registration.address) {
      registration.store(0, ordering: .relaxed)
      retained.release()
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
    guard let storage else { return endOwnedObservation() }
    // Acquiring: the thread that cleared the word marked the registration
    // inactive first (see `remove(claimingFrom:)`).
    guard registration.load(ordering: .acquiring) != 0 else { return }
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
    // An owned observation's word is claimed when it ends, however it ends.
    guard let storage else { return registration.load(ordering: .acquiring) != 0 }
    guard registration.load(ordering: .acquiring) != 0 else { return false }
    return !storage._withUnsafeGuaranteedRef { $0.isClosed }
  }

  /// Ends the observation the token owns, if it still does: the first
  /// call marks the word, ends it (its `end()` clears the word) and lets
  /// go of it; a call racing with it, or with an end the observation met
  /// itself, waits until the word is clear, so that every call returns with
  /// the observation ended.
  private func endOwnedObservation() {
    var word = registration.load(ordering: .acquiring)
    while word != 0 && word & Self.endingBit == 0 {
      let (exchanged, original) = registration.compareExchange(
        expected: word, desired: word | Self.endingBit, ordering: .acquiringAndReleasing
      )
      if exchanged {
        // Marked: the reference is this call's to let go of.
        let observation = Unmanaged<DerivedObservationBase>.fromOpaque(
          UnsafeRawPointer(bitPattern: word & ~Self.ownedBits).unsafelyUnwrapped
        )
        observation._withUnsafeGuaranteedRef { $0.end() }
        observation.release()
        return
      }
      word = original
    }
    while registration.load(ordering: .acquiring) != 0 {
      yieldThread()
    }
  }

  deinit {
    // Another thread may still clear the word (an owned observation that
    // ended itself): an acquiring load orders this token's end after that.
    if registration.load(ordering: .acquiring) != 0 {
      invalidate()
    }
    storage?.release()
  }
}
