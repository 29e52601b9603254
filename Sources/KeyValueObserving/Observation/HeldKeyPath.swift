/// A property's key path, held in a constant of the class that declares
/// `Observable`, so that its setter hands Observation the key path without
/// forming it on every write (a key path literal is a runtime call each
/// time it is evaluated).
///
/// `@unchecked Sendable`: a key path is immutable, but one written in a
/// module without Sendable inference for key path literals (the Swift 5
/// language mode) is not `Sendable`, and a class's constant must be.
///
/// Not API: the macro writes one per property of such a class.
///
/// ```swift
/// private static let _$kvoKeyPath_title = _KeyValueHeldKeyPath(\Sheet.title)
/// ```
public struct _KeyValueHeldKeyPath<Root, Value>: @unchecked Sendable {
  /// The key path.
  public let keyPath: KeyPath<Root, Value>

  @inlinable
  public init(_ keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
  }
}
