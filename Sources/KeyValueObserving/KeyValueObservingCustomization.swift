/// Opt-in customisation of how an observable class notifies: which key paths
/// a key depends on, and which keys notify only by hand.
///
/// The same shape as Foundation's `NSKeyValueObservingCustomization`. Most
/// classes need neither: a computed property's dependencies are found by
/// running its getter. Declare dependencies the getter cannot reveal — state
/// read from outside observable properties, or a stored property that
/// mirrors others — and switch automatic notification off for a key whose
/// changes you announce yourself with ``KeyValueObservable/willChangeValue(for:)``
/// and ``KeyValueObservable/didChangeValue(for:)``.
///
/// ```swift
/// @KeyValueObservable
/// final class Account {
///     var balance = 0
///     var history: [Int] = []
///     var label: String { "\(balance) (\(history.count) entries)" }
/// }
///
/// extension Account: KeyValueObservingCustomization {
///     static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
///         key == \Account.label ? [\Account.history] : []
///     }
///     static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
///         key != \Account.balance  // announced with will/didChangeValue
///     }
/// }
/// ```
///
/// The key paths the library passes in are rooted at the class that declares
/// the property (`\Account.balance`), or are the key path as observed. Swift
/// key paths with different roots are different values, so a subclass that
/// customises an inherited key compares with the superclass's key path.
///
/// The library asks ``automaticallyNotifiesObservers(for:)`` once per object,
/// when the object is first observed, and ``keyPathsAffectingValue(for:)``
/// each time it works out what an observation depends on. On a class
/// isolated to a global actor, declare both `nonisolated`.
public protocol KeyValueObservingCustomization: AnyObject {
  /// The key paths whose changes also change the value at `key`.
  ///
  /// Observing `key` observes these as well, and their own declared
  /// dependencies in turn; a change of any of them notifies the observers of
  /// `key` once, with `key`'s own old and new values. Cycles are allowed.
  ///
  /// ```swift
  /// static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
  ///     switch key {
  ///     case \Person.fullName: [\Person.first, \Person.last]
  ///     default: []
  ///     }
  /// }
  /// ```
  static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>

  /// Whether assigning the stored property at `key` notifies its observers.
  ///
  /// Return `false` to announce the changes yourself with
  /// ``KeyValueObservable/willChangeValue(for:)`` and
  /// ``KeyValueObservable/didChangeValue(for:)``; `.initial` notifications
  /// are sent either way.
  ///
  /// ```swift
  /// static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
  ///     key != \Person.age
  /// }
  /// ```
  static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool
}

extension KeyValueObservingCustomization {
  /// No declared dependencies.
  ///
  /// ```swift
  /// Person.keyPathsAffectingValue(for: \Person.name)  // []
  /// ```
  public static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> { [] }

  /// Every key notifies automatically.
  ///
  /// ```swift
  /// Person.automaticallyNotifiesObservers(for: \Person.name)  // true
  /// ```
  public static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool { true }
}
