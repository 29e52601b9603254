/// A binding's reads and writes, made where `bind` is called, and its two
/// key paths.
///
/// A key path applied at run time is a call into the runtime that costs
/// about ten times an observed write. A key path *literal* captured by a
/// closure is specialised into it by the optimiser, which then reads and
/// writes the property directly — but only when the literal has no other
/// use by then: otherwise the specialised closure forms the key path anew
/// on each call, or is not specialised at all. So the accessor takes the
/// key paths consumed, hands them out first through a closure that does not
/// escape (``handOver(_:)``: the optimiser specialises that one whatever
/// else uses the literal, and the use is gone), and then moves them into
/// ``write``, their one user left.
///
/// ```swift
/// let accessor = BindingAccessor<Person, Label, String, String?>.oneWay(\.name, \.text) { $0 }
/// ```
@usableFromInline
struct BindingAccessor<Source: AnyObject, Target: AnyObject, SourceValue, TargetValue> {
  /// The key paths: for registering, describing, and naming the sides in
  /// the write chain.
  @usableFromInline let keyPaths: BindingKeyPaths<KeyPath<Source, SourceValue>, ReferenceWritableKeyPath<Target, TargetValue>>
  /// Reads the side given, converts, and writes the other, announcing the
  /// write through the announcement given when the written side is a
  /// computed property (see ``ComputedWriteAnnouncement``).
  @usableFromInline let write: (KeyValueBindingSide, Source, Target, Unmanaged<ComputedWriteAnnouncement>?) -> BoundWrite

  @inlinable
  init(
    keyPaths: BindingKeyPaths<KeyPath<Source, SourceValue>, ReferenceWritableKeyPath<Target, TargetValue>>,
    write: @escaping (KeyValueBindingSide, Source, Target, Unmanaged<ComputedWriteAnnouncement>?) -> BoundWrite
  ) {
    self.keyPaths = keyPaths
    self.write = write
  }

  /// What `body` returns. Not inlined, so that `body` stays a closure the
  /// optimiser specialises for the key-path literals it captures.
  @inlinable @inline(never)
  static func handOver<KeyPath: AnyKeyPath>(_ body: () -> KeyPath) -> KeyPath {
    body()
  }

  /// The accessor of a one-way binding of `keyPath` to `targetKeyPath`.
  @inlinable @inline(__always)
  static func oneWay(
    _ keyPath: __owned KeyPath<Source, SourceValue>,
    _ targetKeyPath: __owned ReferenceWritableKeyPath<Target, TargetValue>,
    transform: @escaping (SourceValue) -> TargetValue
  ) -> Self {
    let handedOver = BindingKeyPaths(source: handOver { keyPath }, target: handOver { targetKeyPath })
    let kept = BindingKeyPaths(source: consume keyPath, target: consume targetKeyPath)
    return Self(keyPaths: handedOver) { side, source, target, announced in
      guard side == .source else { return .unchanged }
      return kept.target.bindingWrite(
        transform(borrowedRead(source, kept.source)), to: target, verifying: false, announcing: announced
      )
    }
  }

  /// The accessor of a two-way binding of `keyPath` and `targetKeyPath`.
  @inlinable @inline(__always)
  static func twoWay(
    _ keyPath: __owned ReferenceWritableKeyPath<Source, SourceValue>,
    _ targetKeyPath: __owned ReferenceWritableKeyPath<Target, TargetValue>,
    transform: @escaping (SourceValue) -> TargetValue,
    inverse: @escaping (TargetValue) -> SourceValue
  ) -> Self {
    let handedOver = BindingKeyPaths<KeyPath<Source, SourceValue>, ReferenceWritableKeyPath<Target, TargetValue>>(
      source: handOver { keyPath }, target: handOver { targetKeyPath }
    )
    let kept = BindingKeyPaths(source: consume keyPath, target: consume targetKeyPath)
    return Self(keyPaths: handedOver) { side, source, target, announced in
      side == .source
        ? kept.target.bindingWrite(
          transform(borrowedRead(source, kept.source)), to: target, verifying: true, announcing: announced
        )
        : kept.source.bindingWrite(
          inverse(borrowedRead(target, kept.target)), to: source, verifying: true, announcing: announced
        )
    }
  }
}

/// `object`'s value at `keyPath`, read without a retain of `object`,
/// which the caller holds: a key path applied to a class object retains it
/// for the read, even where the optimiser has made the read direct.
@inlinable @inline(__always)
func borrowedRead<Object: AnyObject, Value>(_ object: Object, _ keyPath: KeyPath<Object, Value>) -> Value {
  Unmanaged.passUnretained(object)._withUnsafeGuaranteedRef { $0[keyPath: keyPath] }
}

/// A binding's two key paths: as its accessor hands them over (the
/// source's read-only), and as its write closure keeps them (both writable
/// where the binding goes both ways). A struct, not a tuple: the optimiser
/// specialises a closure for the key-path literals a captured struct holds.
@usableFromInline
struct BindingKeyPaths<SourcePath: AnyKeyPath, TargetPath: AnyKeyPath> {
  @usableFromInline let source: SourcePath
  @usableFromInline let target: TargetPath

  @inlinable
  init(source: SourcePath, target: TargetPath) {
    self.source = source
    self.target = target
  }
}
