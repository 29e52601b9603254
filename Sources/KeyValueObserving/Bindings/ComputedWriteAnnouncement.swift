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
/// A chain that ends in such a property (`\.sidebar.collapsed`) announces
/// it on the object its links hold at the write (see ``ComputedLeaf``).
///
/// ```swift
/// let announced = announcement?.willWrite(on: model)
/// model[keyPath: \.collapsed] = true
/// announcement?.didWrite(announced)
/// ```
@usableFromInline
final class ComputedWriteAnnouncement: @unchecked Sendable {
  // @unchecked Sendable: immutable.

  /// Where a write is announced: the storage of the object that holds the
  /// property, and the key path its observations are filed under.
  @usableFromInline
  struct Announced {
    let storage: _KeyValueObservationStorage
    let keyPath: AnyKeyPath
  }

  /// The property's, when it is one property of the bound object.
  private let fixed: Announced?
  /// The chain's last property, found at each write, otherwise.
  private let leaf: ComputedLeaf?

  /// The announcement of writes to `keyPath` of `object`: one computed
  /// property its class's table names, or a chain that ends in one;
  /// otherwise `nil`, as a stored property announces its own writes.
  static func ofComputed<Object: KeyValueObservable>(
    _ keyPath: AnyKeyPath, on object: Object
  ) -> ComputedWriteAnnouncement? {
    if let filed = Object._$kvoFilingKeyPath(ofComputed: keyPath) {
      return ComputedWriteAnnouncement(fixed: Announced(storage: object._$kvoStorage(), keyPath: filed), leaf: nil)
    }
    guard let leaf = ComputedLeaf(keyPath) else { return nil }
    return ComputedWriteAnnouncement(fixed: nil, leaf: leaf)
  }

  private init(fixed: Announced?, leaf: ComputedLeaf?) {
    self.fixed = fixed
    self.leaf = leaf
  }

  /// Announces the will of a write to `object`; what it gives, the did
  /// takes.
  @usableFromInline
  func willWrite(on object: AnyObject) -> Announced? {
    guard let announced = fixed ?? announced(byLinksOf: object) else { return nil }
    announced.storage.forwardManualChange(of: announced.keyPath, isPrior: true)
    return announced
  }

  /// Where the chain's last property is announced on the object the links
  /// of `object` hold now, if they hold one that has it.
  private func announced(byLinksOf object: AnyObject) -> Announced? {
    guard let leaf, let root = object as? any KeyValueObservable, let key = leaf.readKey(from: root),
      let filed = type(of: key.object)._$kvoFilingKeyPath(ofComputed: key.keyPath)
    else { return nil }
    return Announced(storage: key.object._$kvoStorage(), keyPath: filed)
  }

  /// Announces the did of the write whose will gave `announced`.
  @usableFromInline
  func didWrite(_ announced: Announced?) {
    guard let announced else { return }
    announced.storage.forwardManualChange(of: announced.keyPath, isPrior: false)
  }
}
