/// The header of a ``RegistrationList``: its length and what its live
/// registrations ask for.
@usableFromInline
struct RegistrationListHeader {
  /// How many entries are initialised (holes included).
  @usableFromInline var count: Int32 = 0
  /// How many entries are live registrations.
  var liveCount: Int32 = 0
  /// How many live registrations asked for `.old`, `.new` and `.prior`.
  var oldValueCount: Int32 = 0
  var newValueCount: Int32 = 0
  var priorCount: Int32 = 0
  /// How many live registrations a chain's walk reads the key for.
  var walkedCount: Int32 = 0
  /// Whether a change took a snapshot of the list since it was last known
  /// to be unread.
  var isShared = false

  /// The `.old`, `.new` and `.prior` bits of the options some live
  /// registration asked for, and the walked-by-chain bit if some live
  /// registration has it.
  var wantedOptions: UInt8 {
    // Bits, not an option set's array literal, which an unoptimised build
    // would make on every change.
    var bits = 0
    if oldValueCount > 0 { bits |= KeyValueObservingOptions.old.rawValue }
    if newValueCount > 0 { bits |= KeyValueObservingOptions.new.rawValue }
    if priorCount > 0 { bits |= KeyValueObservingOptions.prior.rawValue }
    if walkedCount > 0 { bits |= Int(_KeyValueRegistration.walkedByChainBit) }
    return UInt8(bits)
  }

  /// Counts `registration` in (`delta` 1) or out (-1).
  mutating func tally(_ registration: _KeyValueRegistration, by delta: Int32) {
    let options = registration.options
    liveCount += delta
    if registration.walkedByChain { walkedCount += delta }
    if options.contains(.old) { oldValueCount += delta }
    if options.contains(.new) { newValueCount += delta }
    if options.contains(.prior) { priorCount += delta }
  }
}
