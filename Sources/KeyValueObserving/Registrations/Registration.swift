/// One live registration: what it asked for and whether it may still be
/// called.
///
/// The registrar's storage is its only owner: the slot list holds it from
/// `add` to `remove` (or until the observed object deinitialises), and a
/// notification under way keeps it alive through its snapshot of the list. The
/// token refers to it without owning it, so removing it releases the
/// callback and everything the callback captured.
///
/// Not API: the macro-generated setters reach it through
/// ``_KeyValueObservationStorage``.
public class _KeyValueRegistration: @unchecked Sendable {
  // @unchecked Sendable: everything is immutable except `isActive`, which is
  // atomic, `indexInSlot`, which only the owning storage's lock guards, and
  // `site`, written before the registration is listed.

  /// The options it asked for (the low five bits), how a change reaches
  /// it (the two above) and whether a chain's walk reads its key (the top
  /// bit, ``walkedByChain``): one byte, so that with the slot and the position
  /// the registration's own fields take eight bytes, and a closure's
  /// registration is a 40-byte allocation — 48 bytes of heap, not 64.
  @usableFromInline let bits: UInt8

  /// Cleared once, when the registration is removed; checked before every call.
  @usableFromInline let isActive = AtomicFlag(true)

  /// The key it observes.
  @usableFromInline let slotNumber: Int16

  /// Its position in the slot's list; owned by the storage's lock.
  @exclusivity(unchecked) nonisolated(unsafe) var indexInSlot: Int32 = -1

  /// Where it was made, in a debug build of the library (no bytes in a
  /// release build); written once, before it is listed.
  @usableFromInline final var site = RegistrationSite(fileID: "", line: 0)

  /// What the registration asked for.
  @inlinable
  final var options: KeyValueObservingOptions {
    KeyValueObservingOptions(rawValue: Int(bits & 0x1F))
  }

  /// How a change reaches it.
  @inlinable
  final var receiver: _KeyValueReceiver {
    // The enum's cases are stored as their raw values, 0 to 3.
    unsafeBitCast(bits >> 5 & 0b11, to: _KeyValueReceiver.self)
  }

  /// Whether a change calls its closure directly (its ``receiver`` is
  /// `.handler`): one comparison of the byte, where asking ``receiver``
  /// let the optimiser switch over every case through a table.
  @inlinable
  final var callsHandler: Bool { bits & 0x60 == _KeyValueReceiver.handler.rawValue << 5 }

  /// Whether a chain's walk reads the key from other threads, under the
  /// lock of the key's storage: then each write of the key holds what it
  /// replaced until it has taken that lock once after its store (see
  /// ``_KeyValueObservationStorage/letLinkReadersFinish()``).
  @inlinable
  final var walkedByChain: Bool { bits & Self.walkedByChainBit != 0 }

  /// The bit of ``bits`` that says ``walkedByChain``.
  @inlinable
  static var walkedByChainBit: UInt8 { 0x80 }

  /// The key it observes.
  @inlinable
  final var slot: Int { Int(slotNumber) }

  /// Whether the registration may still be called.
  @inlinable
  final var isLive: Bool { isActive.load(ordering: .acquiring) }

  /// The slot number of a registration filed under a key path rather than a
  /// slot (the anchor of a derived observation).
  static let keyPathSlot = -1

  /// The slot number of a registration that hears every key of its object
  /// (a model graph's): the table files it in every slot's list, one
  /// reference per slot, and finds it there by identity, not by
  /// ``indexInSlot``.
  static let everyKeySlot = -2

  /// The slot number of a registration filed as ``everyKeySlot`` is, which
  /// also has each setting's two values compared before they are boxed,
  /// as an undo stack's graph node does (``EqualSettingDroppingNode``).
  /// The number says so: the change loop asks with one comparison of a
  /// field it has loaded (a call to ask cost a graph's write 20 to 40
  /// instructions).
  @inlinable
  static var everyKeyComparingSettingsSlot: Int { -3 }

  /// Whether `slot`, a registration's slot number, is one of those that
  /// hear every key.
  static func hearsEveryKey(_ slot: Int) -> Bool {
    slot == everyKeySlot || slot == everyKeyComparingSettingsSlot
  }

  @usableFromInline
  init(options: KeyValueObservingOptions, slot: Int, receiver: _KeyValueReceiver = .typed, walkedByChain: Bool = false) {
    precondition(
      Int16(exactly: slot) != nil,
      "KeyValueObserving: slot \(slot) is out of range; a class and its superclasses may have at most 32,767 observable properties"
    )
    self.bits = UInt8(truncatingIfNeeded: options.rawValue) & 0x1F | receiver.rawValue << 5
      | (walkedByChain ? Self.walkedByChainBit : 0)
    self.slotNumber = Int16(truncatingIfNeeded: slot)
  }

  /// Who receives the notifications, for ``KeyValueObservable/observationInfo``.
  var observerDescription: String { "registration" }

  /// Who receives the notifications, for ``KeyValueObservationGraph``.
  var observerSource: ObserverSource { .closure }

  /// The key it observes, for ``KeyValueObservable/observationInfo``, when
  /// that is not the name of its slot.
  var keyDescription: String? { nil }

  /// The key it observes, named on `type`, the observed object's: the
  /// ``keyDescription`` where there is one, the slot's name otherwise.
  final func keyName(on type: any KeyValueObservable.Type) -> String {
    keyDescription ?? type._$kvoKey(forSlot: slot) ?? "#\(slot)"
  }

  /// What a derived observation's value depends on now, for
  /// ``KeyValueObservable/observationInfo``; empty for everything else.
  var dependencyDescriptions: [String] { [] }

  /// Whether ``KeyValueObservable/observationInfo`` lists it: `false` for
  /// the library's own registrations with what a derived key depends on,
  /// which the derived observation's entry lists instead.
  var isListed: Bool { true }

  /// The key path a registration is filed under instead of a slot: set for
  /// the anchor of a derived observation, `nil` for everything else.
  var anchorKeyPath: AnyKeyPath? { nil }

  /// Told, once and with no lock held, that the registration was removed:
  /// invalidated, or its object deinitialised.
  func registrationEnded() {}

  /// Told instead of ``registrationEnded()`` when the registration ended
  /// because its object deinitialised; the same by default.
  func registrationClosed() {
    registrationEnded()
  }

  /// Receives a change of the observed key without its values: the will
  /// (`isPrior`) and the did of a dependency of a derived key, made on
  /// `object` (`nil` for a manual change of a derived key itself). Called
  /// on registrations whose ``receiver`` is `.forwarding`.
  @usableFromInline
  func forwardChange(isPrior: Bool, from object: AnyObject?) {}
}
