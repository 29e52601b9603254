/// What a binding asks of its accessor.
@usableFromInline
enum BindingAccess {
  /// Hand over the two key paths (see ``BindingAccessor/keyPaths``).
  case keyPaths
  /// Read the source, convert, write the target.
  case forward
  /// Both ways: read the target, convert, write the source.
  case backward
}

/// The closure that holds a binding's two key paths, made where `bind` is
/// called, and their only user.
///
/// A key path applied at run time is a call into the runtime that costs
/// about ten times an observed write. A key path *literal* captured by a
/// closure is specialised into it by the optimiser, which then reads and
/// writes the property directly — but only when the closure is the
/// literal's one use, and the literal's life ends where the closure
/// captures it. So `bind` hands its key paths, consumed, to
/// ``oneWay(_:_:transform:)`` or ``twoWay(_:_:transform:inverse:)``, and
/// to nothing else; the binding asks the closure for them once
/// (``BindingAccess/keyPaths``), to register and to describe itself, and
/// for every write after that. (Two closures, one for each purpose, would
/// be two uses, and neither would be specialised.)
///
/// ```swift
/// let accessor = BindingAccessor<Person, Label, String, String?>.oneWay(\.name, \.text) { $0 }
/// ```
@usableFromInline
struct BindingAccessor<Source: AnyObject, Target: AnyObject, SourceValue, TargetValue> {
  @usableFromInline let access:
    (BindingAccess, Source?, Target?, inout BindingKeyPaths<Source, Target, SourceValue, TargetValue>?)
      -> BoundWrite

  @inlinable
  init(
    _ access: @escaping (
      BindingAccess, Source?, Target?, inout BindingKeyPaths<Source, Target, SourceValue, TargetValue>?
    ) -> BoundWrite
  ) {
    self.access = access
  }

  /// The key paths, asked once.
  @usableFromInline
  var keyPaths: BindingKeyPaths<Source, Target, SourceValue, TargetValue> {
    var keyPaths: BindingKeyPaths<Source, Target, SourceValue, TargetValue>? = nil
    _ = access(.keyPaths, nil, nil, &keyPaths)
    return keyPaths.unsafelyUnwrapped
  }

  /// The accessor of a one-way binding of `keyPath` to `targetKeyPath`.
  /// The key paths end their lives here, moved into the closure.
  @inlinable @inline(__always)
  static func oneWay(
    _ keyPath: __owned KeyPath<Source, SourceValue>,
    _ targetKeyPath: __owned ReferenceWritableKeyPath<Target, TargetValue>,
    transform: @escaping (SourceValue) -> TargetValue
  ) -> Self {
    Self { access, source, target, keyPaths in
      switch access {
      case .keyPaths:
        keyPaths = BindingKeyPaths(source: keyPath, target: targetKeyPath)
        return .unchanged
      case .forward:
        return targetKeyPath.bindingWrite(
          transform(source.unsafelyUnwrapped[keyPath: keyPath]), to: target.unsafelyUnwrapped, verifying: false
        )
      case .backward:
        return .unchanged
      }
    }
  }

  /// The accessor of a two-way binding of `keyPath` and `targetKeyPath`.
  /// The key paths end their lives here, moved into the closure.
  @inlinable @inline(__always)
  static func twoWay(
    _ keyPath: __owned ReferenceWritableKeyPath<Source, SourceValue>,
    _ targetKeyPath: __owned ReferenceWritableKeyPath<Target, TargetValue>,
    transform: @escaping (SourceValue) -> TargetValue,
    inverse: @escaping (TargetValue) -> SourceValue
  ) -> Self {
    Self { access, source, target, keyPaths in
      switch access {
      case .keyPaths:
        keyPaths = BindingKeyPaths(source: keyPath, target: targetKeyPath)
        return .unchanged
      case .forward:
        return targetKeyPath.bindingWrite(
          transform(source.unsafelyUnwrapped[keyPath: keyPath]), to: target.unsafelyUnwrapped, verifying: true
        )
      case .backward:
        return keyPath.bindingWrite(
          inverse(target.unsafelyUnwrapped[keyPath: targetKeyPath]), to: source.unsafelyUnwrapped, verifying: true
        )
      }
    }
  }
}

/// A binding's two key paths, as its accessor hands them over.
@usableFromInline
struct BindingKeyPaths<Source: AnyObject, Target: AnyObject, SourceValue, TargetValue> {
  @usableFromInline let source: KeyPath<Source, SourceValue>
  @usableFromInline let target: ReferenceWritableKeyPath<Target, TargetValue>

  @inlinable
  init(source: KeyPath<Source, SourceValue>, target: ReferenceWritableKeyPath<Target, TargetValue>) {
    self.source = source
    self.target = target
  }
}
