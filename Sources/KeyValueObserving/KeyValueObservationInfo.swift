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

  /// Makes an entry; the library makes these for ``KeyValueObservable/observationInfo``.
  ///
  /// ```swift
  /// let entry = KeyValueObservationInfo(keyPath: "name", options: .new, observer: "closure")
  /// ```
  public init(keyPath: String, options: KeyValueObservingOptions, observer: String) {
    self.keyPath = keyPath
    self.options = options
    self.observer = observer
  }

  /// `keyPath options → observer`.
  ///
  /// ```swift
  /// print(entry)  // name [.new, .old] → closure (Person, KeyValueObservedChange<String>)
  /// ```
  public var description: String {
    "\(keyPath) \(options) → \(observer)"
  }
}

extension KeyValueObservable {
  /// The live registrations on this object, key by key in slot order and, for
  /// each key, in registration order: the observation graph from the observed
  /// object's side, for debugging.
  ///
  /// The observation of a computed key or a chain is listed under its key
  /// path on the object it was made on, and each property it depends on
  /// lists a `dependency of …` entry on whichever object holds that
  /// property. Where Swift cannot name a key path's properties at run time
  /// (on Linux, the macro's accessors), the key path reads as the keys it
  /// depends on: `derived(address, Address.street)`.
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
    return storage.liveRegistrations().map { registration in
      let key = registration.keyDescription ?? Self._$kvoKey(forSlot: registration.slot)
      return KeyValueObservationInfo(
        keyPath: key ?? "#\(registration.slot)",
        options: registration.options,
        observer: registration.observerDescription
      )
    }
  }

  /// `keyPath`, readably: Swift's description when it names the
  /// properties, and otherwise (the macro's accessors have no names at run
  /// time on Linux) the description of a derived observation of it on this
  /// object, which lists the keys it depends on.
  func readableDescription(of keyPath: AnyKeyPath) -> String {
    let described = "\(keyPath)"
    guard described.contains("<computed"), let storage = _$kvoObservedStorage?.takeUnretainedValue() else {
      return described
    }
    let anchor = storage.liveRegistrations().first { $0.anchorKeyPath == keyPath }
    return anchor?.keyDescription ?? described
  }
}
