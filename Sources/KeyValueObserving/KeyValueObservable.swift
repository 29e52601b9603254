/// A class whose properties can be observed key by key.
///
/// Don't conform by hand: apply ``KeyValueObservable()`` to the class and the
/// macro writes the conformance, the registrar and the key table.
///
/// ```swift
/// @KeyValueObservable
/// final class Person {
///     var name = ""
///     var age = 0
/// }
///
/// let person = Person()
/// let token = person.observe(\.age, options: [.old, .new]) { _, change in
///     print("\(change.oldValue!) → \(change.newValue!)")
/// }
/// person.age = 1  // prints "0 → 1"
/// ```
///
/// The requirements whose names start with `_$kvo` are written by the macro
/// and are not API.
public protocol KeyValueObservable: AnyObject {
  /// The object's registration storage, or `nil` while nothing has ever
  /// observed it; not retained, valid while the object lives. Written by the
  /// macro.
  var _$kvoObservedStorage: Unmanaged<_KeyValueObservationStorage>? { get }

  /// The object's registration storage, created on first use. Written by the
  /// macro.
  func _$kvoStorage() -> _KeyValueObservationStorage

  /// The class's key table: its observable stored properties in slot
  /// order, after its superclass's, and its other readable properties.
  /// Written by the macro, one line per property; every class-level
  /// question below is answered from it.
  static var _$kvoKeys: _KeyValueKeyTable { get }

  /// The slot of the observable stored property `keyPath` names, or `nil`
  /// when it names something else. Written by the macro for a class whose
  /// subclasses may root key paths at themselves (a non-final class or a
  /// subclass); a final class finds its key paths in its table.
  static func _$kvoSlot(for keyPath: AnyKeyPath) -> Int?

  /// Reports `event` of the observable stored property at `slot` to Swift
  /// Observation. Written by the macro for a class that declares
  /// `Observable` (see ``_KeyValueObservationEvent``); a no-op for every
  /// other class.
  func _$kvoObservationEvent(_ event: _KeyValueObservationEvent, slot: Int)

  /// Runs `mutation` as one mutation of the observable stored property at
  /// `slot`, as Swift Observation sees it: announced before and after for a
  /// class that declares `Observable` (the runtime's default for such a
  /// class); `mutation` alone for every other class.
  func _$kvoObservedMutation<Result>(ofSlot slot: Int, _ mutation: () -> Result) -> Result
}
