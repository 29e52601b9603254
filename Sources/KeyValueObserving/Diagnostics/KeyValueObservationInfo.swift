/// One live registration on an object, as ``KeyValueObservable/observationInfo``
/// lists it: which key, with which options, and who receives the changes.
///
/// ```swift
/// let token = person.observe(\.name, options: [.old, .new]) { _, _ in }
/// for entry in person.observationInfo {
///     print(entry)  // name [.new, .old] → closure (Person, KeyValueObservedChange<String>)
/// }
/// ```
public struct KeyValueObservationInfo: Sendable, Hashable, CustomStringConvertible {
  /// The observed key, for example `"name"`.
  ///
  /// ```swift
  /// person.observationInfo.map(\.keyPath)  // ["name"]
  /// ```
  public let keyPath: String

  /// The options the registration was made with.
  ///
  /// ```swift
  /// person.observationInfo.first?.options  // [.new, .old]
  /// ```
  public let options: KeyValueObservingOptions

  /// Who receives the changes, for example
  /// `closure (Person, KeyValueObservedChange<String>)`.
  ///
  /// ```swift
  /// person.observationInfo.first?.observer
  /// ```
  public let observer: String

  /// For a computed key or a chain, the keys its value depends on now, in
  /// the order they were read, each on its own type where that is not the
  /// observed object: `["address", "Address.city"]`. Empty for a stored key.
  ///
  /// ```swift
  /// person.observationInfo.first?.dependencies  // ["address", "Address.city"] for \.address?.city
  /// ```
  public let dependencies: [String]

  /// Makes an entry; the library makes these for ``KeyValueObservable/observationInfo``.
  ///
  /// ```swift
  /// let entry = KeyValueObservationInfo(keyPath: "name", options: .new, observer: "closure")
  /// ```
  public init(keyPath: String, options: KeyValueObservingOptions, observer: String, dependencies: [String] = []) {
    self.keyPath = keyPath
    self.options = options
    self.observer = observer
    self.dependencies = dependencies
  }

  /// `keyPath options → observer`, and what a derived key depends on.
  ///
  /// ```swift
  /// print(entry)  // name [.new, .old] → closure (Person, KeyValueObservedChange<String>)
  /// print(derived)  // address.city [.new] → closure (…) ← address, Address.city
  /// ```
  public var description: String {
    let base = "\(keyPath) \(options) → \(observer)"
    return dependencies.isEmpty ? base : base + " ← " + dependencies.joined(separator: ", ")
  }
}

extension KeyValueObservable {
  /// The live registrations on this object, key by key in slot order and, for
  /// each key, in registration order: the observation graph from the observed
  /// object's side, for debugging.
  ///
  /// One entry per registration a user made: the observation of a computed
  /// key or a chain is listed once, on the object it was made on, under the
  /// key path as written (`summary`, `address.street`), with the keys it
  /// depends on now in ``KeyValueObservationInfo/dependencies``. The
  /// registrations the library makes with those keys are not listed.
  ///
  /// ```swift
  /// let token = person.observe(\.age, options: .new) { _, _ in }
  /// print(person.observationInfo)
  /// // [age [.new] → closure (Person, KeyValueObservedChange<Int>)]
  /// token.invalidate()
  /// assert(person.observationInfo.isEmpty)
  /// ```
  public var observationInfo: [KeyValueObservationInfo] {
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return [] }
    return storage.liveRegistrations().filter(\.isListed).map { registration in
      KeyValueObservationInfo(
        keyPath: registration.keyName(on: Self.self),
        options: registration.options,
        observer: registration.observerDescription,
        dependencies: registration.dependencyDescriptions
      )
    }
  }

  /// `keyPath`, readably: as its user wrote it (see ``describe(_:)``), and
  /// where a component cannot be named, the description of a derived
  /// observation of it on this object, which lists the keys it depends on.
  func readableDescription(of keyPath: AnyKeyPath) -> String {
    if let written = Self.writtenDescription(of: keyPath) { return written }
    let anchor = _$kvoObservedStorage?.takeUnretainedValue().liveRegistrations().first { $0.anchorKeyPath == keyPath }
    return anchor?.keyDescription ?? "\(keyPath)"
  }
}
