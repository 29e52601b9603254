/// An object's lifetime as a key a derived observation can depend on: the
/// value's own object, for an observation that hears freed objects (see
/// ``KeyValueObservingOptions/deallocation``).
///
/// The links of an observed path are heard freed through the keys read on
/// them; the object a path ends in has no key read, so the observation
/// registers with its storage under this key path, which no change is
/// ever announced under: the registration hears only the storage close.
@usableFromInline
enum ObjectLifetime {
  private struct Marker {}

  /// The key path the registrations are filed under.
  // nonisolated(unsafe): a key path is immutable.
  nonisolated(unsafe) static let keyPath: AnyKeyPath = \Marker.self

  /// The key's name in descriptions: `Item.deinit`.
  static let keyName = "deinit"

  /// Whether a value of `type` may be a `@KeyValueObservable` object — a
  /// class, or an existential (`any Delegate`, `AnyObject`, `Any`) —,
  /// optionals taken off: a struct's or an enum's value never is, and is
  /// not looked into at each read.
  @usableFromInline
  static func mayHoldObject(_ type: Any.Type) -> Bool {
    let unwrapped = unwrappedType(type)
    if unwrapped is AnyObject.Type { return true }
    // A type's metadata starts with its kind (the runtime's ABI:
    // `MetadataKind` in the compiler's MetadataKind.def): 0x303 an
    // existential, 0x307 one with constraints.
    let kind = unsafeBitCast(unwrapped, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x303 || kind == 0x307
  }

  /// Adds the lifetime of `value`'s object to `keys`, when it is a
  /// `@KeyValueObservable` object.
  @usableFromInline
  static func track<Value>(_ value: Value, in keys: inout [ReadKey]) {
    guard let object = flattened(value) as? any KeyValueObservable else { return }
    keys.append(ReadKey(object: object, keyPath: keyPath, isObservedKey: false))
  }
}
