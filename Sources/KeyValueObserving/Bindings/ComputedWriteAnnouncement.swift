/// How a binding announces its write to a computed property, whose setter
/// announces nothing itself (the macro cannot see what it writes: a
/// defaults store, a C struct, another object): a will before the write
/// and a did after it, on the object's storage, to the observations filed
/// under the property's key path — as ``KeyValueObservable/setValue(_:forKey:)``
/// announces its writes, and Objective-C KVO's swizzled setter.
///
/// An object of its own, made when the binding is, so that the accessor's
/// specialised write uses its key path for nothing but the write (a
/// second use makes the optimiser form the key path at every write; see
/// ``BindingAccessor``).
///
/// ```swift
/// announcement?.willWrite()
/// model[keyPath: \.collapsed] = true
/// announcement?.didWrite()
/// ```
@usableFromInline
final class ComputedWriteAnnouncement: @unchecked Sendable {
  // @unchecked Sendable: immutable.
  private let storage: _KeyValueObservationStorage
  private let keyPath: AnyKeyPath

  /// The announcement of writes to `keyPath` of the object of `storage`,
  /// when `keyPath` is one computed property its class's table names;
  /// otherwise `nil`, as a stored property announces its own writes.
  static func ofComputed<Object: KeyValueObservable>(
    _ keyPath: AnyKeyPath, on object: Object
  ) -> ComputedWriteAnnouncement? {
    guard let filed = Object._$kvoFilingKeyPath(ofComputed: keyPath) else { return nil }
    return ComputedWriteAnnouncement(storage: object._$kvoStorage(), keyPath: filed)
  }

  private init(storage: _KeyValueObservationStorage, keyPath: AnyKeyPath) {
    self.storage = storage
    self.keyPath = keyPath
  }

  @usableFromInline
  func willWrite() {
    storage.forwardManualChange(of: keyPath, isPrior: true)
  }

  @usableFromInline
  func didWrite() {
    storage.forwardManualChange(of: keyPath, isPrior: false)
  }
}
