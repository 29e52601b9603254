/// How a change reaches a registration, so that the notification loop, which
/// knows the values' type, calls each kind without a cast or a lookup.
///
/// Not API.
@usableFromInline
enum _KeyValueReceiver: UInt8 {
  /// A ``_KeyValueHandlerRegistration`` of the key's value type: its
  /// handler is called directly.
  case handler
  /// A ``_KeyValueValueRegistration`` of the key's value type, which
  /// receives the change through its own method.
  case typed
  /// A classic observer, which receives a change dictionary: built where
  /// the values' type is known (``ClassicRegistration``).
  case dictionary
  /// A dependency of a derived key, told only that the key changes:
  /// ``_KeyValueRegistration/forwardChange(isPrior:)``.
  case forwarding
}
