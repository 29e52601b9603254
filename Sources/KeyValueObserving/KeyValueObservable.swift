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

  /// How many observable keys the class has, its superclasses' included.
  /// Written by the macro.
  static var _$kvoKeyCount: Int { get }

  /// The slot of the observable stored property `keyPath` names, or `nil`
  /// when it names something else. Written by the macro.
  static func _$kvoSlot(for keyPath: AnyKeyPath) -> Int?

  /// The slot of the observable stored property called `key`. Written by the
  /// macro.
  static func _$kvoSlot(forKey key: String) -> Int?

  /// The name of the observable stored property at `slot`. Written by the
  /// macro.
  static func _$kvoKey(forSlot slot: Int) -> String?

  /// A key path to the observable stored property at `slot`, rooted at the
  /// class that declares it. Written by the macro.
  static func _$kvoKeyPath(forSlot slot: Int) -> AnyKeyPath?

  /// Hands `access` a key path to the backing storage of the observable
  /// stored property at `slot`, rooted at the class that declares it, with
  /// its types; returns `false` (and hands nothing) where a subclass
  /// overrides the property. Collection proxies change an array or a set in
  /// place through it, and key-value coding assigns through it. Written by
  /// the macro.
  static func _$kvoAccessStorage(ofSlot slot: Int, _ access: _KeyValueStorageAccess) -> Bool

  /// The class whose generated members these are: the most derived class
  /// the macro marked. An object whose dynamic type is another one belongs
  /// to a subclass the macro did not see, whose overrides the tables cannot
  /// know. Written by the macro.
  static var _$kvoMarkedType: AnyObject.Type { get }

  /// A key path to the readable property called `key` that is not an
  /// observable stored one (a constant, a computed or an ignored property),
  /// rooted at the class that declares it. Written by the macro.
  static func _$kvoOtherKeyPath(forKey key: String) -> AnyKeyPath?

  /// The getter of the computed property `keyPath` names, as a
  /// `@MainActor` function from the class that declares it to the
  /// property's type, when the class declares it with a getter the table
  /// can call: observing it then reads it with a direct call, not a key
  /// path projection. `@MainActor` only so that it compiles whether the
  /// getter is isolated to the main actor or not (the macro cannot see a
  /// module's default isolation); the function has the layout of a plain
  /// one, and the runtime calls it where it would read the key path.
  /// Written by the macro.
  static func _$kvoGetter(for keyPath: AnyKeyPath) -> Any?

  /// Whether the property called `key` has a `private(set)` or
  /// `fileprivate(set)` setter, which key-value coding must not call by
  /// string (the key path the class builds for itself is writable).
  /// Written by the macro.
  static func _$kvoIsReadOnly(forKey key: String) -> Bool

  /// The name of the property `keyPath` names, when it is one property of
  /// this class (observable or not), for messages: on some platforms a key
  /// path to a macro-written property describes itself as
  /// `<computed 0x…>`. Written by the macro.
  static func _$kvoName(for keyPath: AnyKeyPath) -> String?

  /// Reports `event` of the observable stored property at `slot` to Swift
  /// Observation. Written by the macro for a class that declares
  /// `Observable` (see ``_KeyValueObservationEvent``); a no-op for every
  /// other class.
  func _$kvoObservationEvent(_ event: _KeyValueObservationEvent, slot: Int)

  /// Runs `mutation` as one mutation of the observable stored property at
  /// `slot`, as Swift Observation sees it. Written by the macro for a class
  /// that declares `Observable`; runs `mutation` alone for every other
  /// class.
  func _$kvoObservedMutation<Result>(ofSlot slot: Int, _ mutation: () -> Result) -> Result
}
