// The controller's actions: a method of the observer, named without an
// instance, instead of a block — Swift's counterpart of FBKVOController's
// `action:@selector(…)`.

extension KVOController {
  /// Observes `keyPath` on `object` and calls `action` — a method of the
  /// observer, named without an instance (`ViewModel.titleChanged`) — on
  /// the observer, with the object and the change: Swift's counterpart of
  /// FBKVOController's `action:@selector(…)`. The observer is not kept
  /// alive and the method reference holds nothing, so no capture list is needed.
  ///
  /// ```swift
  /// final class ViewModel {
  ///     lazy var kvo = KVOController(observer: self)
  ///     init(person: Person) {
  ///         kvo.observe(person, \.name, options: .new, action: ViewModel.nameChanged)
  ///     }
  ///     func nameChanged(_ person: Person, _ change: KeyValueObservedChange<String>) { … }
  /// }
  /// ```
  public func observe<Object: KeyValueObservable, Value>(
    _ object: Object?,
    _ keyPath: KeyPath<Object, Value>,
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    action: @escaping (Observer) -> (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    observe(object, keyPath, options: options, isolation: isolation, fileID: fileID, line: line) { observer, object, change in
      action(observer)(object, change)
    }
  }

  /// Observes the string key path `keyPath` on `object` and calls `action`,
  /// a method of the observer, with the object and a change dictionary that
  /// also holds ``KeyValueChangeKey/keyPath``.
  ///
  /// ```swift
  /// try kvo.observe(person, keyPath: "address.city", options: .new, action: ViewModel.cityChanged)
  /// // func cityChanged(_ person: Person, _ change: [KeyValueChangeKey: Any]) { … }
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` for an empty or unknown key path, or
  ///   one that nothing can notify.
  public func observe<Object: KeyValueObservable>(
    _ object: Object?,
    keyPath: String,
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    action: @escaping (Observer) -> (Object, [KeyValueChangeKey: Any]) -> Void
  ) throws(KeyValueCodingError) {
    try observe(object, keyPaths: [keyPath], options: options, isolation: isolation, fileID: fileID, line: line, action: action)
  }

  /// Observes each of the string key paths `keyPaths` on `object` and
  /// calls `action`, a method of the observer, with the object and a
  /// change dictionary whose ``KeyValueChangeKey/keyPath`` says which key
  /// changed — FBKVOController's `observe:keyPaths:options:action:`.
  ///
  /// ```swift
  /// try kvo.observe(person, keyPaths: ["name", "age"], options: .new, action: ViewModel.personChanged)
  /// // func personChanged(_ person: Person, _ change: [KeyValueChangeKey: Any]) { … }
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` for an empty or unknown key path, or
  ///   one that nothing can notify; nothing is observed then.
  public func observe<Object: KeyValueObservable>(
    _ object: Object?,
    keyPaths: [String],
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    action: @escaping (Observer) -> (Object, [KeyValueChangeKey: Any]) -> Void
  ) throws(KeyValueCodingError) {
    try observe(object, keyPaths: keyPaths, options: options, isolation: isolation, fileID: fileID, line: line) { observer, object, change in
      action(observer)(object, change)
    }
  }
}
