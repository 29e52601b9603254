// The controller's string-keyed forms: FBKVOController's key path strings,
// with a dictionary block or delivered to the observer's observeValue.

extension KVOController {
  /// Observes each string key path of `keyPaths` on `object` and calls
  /// `block` with the observer, the object and a change dictionary that
  /// also holds ``KeyValueChangeKey/keyPath``, so one block can serve many
  /// keys.
  ///
  /// Every key path is checked before any is observed: one that is empty,
  /// unknown, runs through a non-observable link
  /// (``KeyValueCodingError/notAnObservableObject(keyPath:key:type:)``) or
  /// names a key nothing can notify
  /// (``KeyValueCodingError/neverNotifies(keyPath:key:type:)``) throws and nothing is registered; so does an empty list
  /// (``KeyValueCodingError/emptyKey(keyPath:type:)``), as FBKVOController
  /// asserts — also when `object` is `nil`, which otherwise observes
  /// nothing. Key paths already observed on `object` are skipped.
  ///
  /// ```swift
  /// try kvo.observe(person, keyPaths: ["name", "address.city"], options: .new) { viewModel, person, change in
  ///     viewModel.refresh(change[.keyPath] as! String)
  /// }
  /// ```
  public func observe<Object: KeyValueObservable>(
    _ object: Object?,
    keyPaths: [String],
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    block: @escaping (Observer, Object, [KeyValueChangeKey: Any]) -> Void
  ) throws(KeyValueCodingError) {
    let site = RegistrationSite(fileID: fileID, line: line)
    let handler = Self.checking(isolatedTo: isolation) { observer, object, keyPath, change, _ in
      var change = change
      change[.keyPath] = keyPath
      block(observer, unsafeDowncast(object, to: Object.self), change)
    }
    try observeByString(object, keyPaths, options: options, context: nil, site: site, handler: handler)
  }

  /// Observes one string key path on `object` and calls `block` with the
  /// observer, the object and a change dictionary that also holds
  /// ``KeyValueChangeKey/keyPath`` — FBKVOController's
  /// `observe:keyPath:options:block:`.
  ///
  /// ```swift
  /// try kvo.observe(person, keyPath: "address.city", options: .new) { viewModel, person, change in
  ///     viewModel.city = change[.new] as? String
  /// }
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` for an empty or unknown key path, or
  ///   one that nothing can notify; nothing is observed then.
  public func observe<Object: KeyValueObservable>(
    _ object: Object?,
    keyPath: String,
    options: KeyValueObservingOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    block: @escaping (Observer, Object, [KeyValueChangeKey: Any]) -> Void
  ) throws(KeyValueCodingError) {
    try observe(object, keyPaths: [keyPath], options: options, isolation: isolation, fileID: fileID, line: line, block: block)
  }
}

extension KVOController where Observer: KeyValueObserver {
  /// Observes the string key path `keyPath` on `object` and delivers each
  /// change to the observer's
  /// ``KeyValueObserver/observeValue(forKeyPath:of:change:context:)``, with
  /// `context`.
  ///
  /// ```swift
  /// try kvo.observe(person, keyPath: "name", options: .new, context: &Self.nameContext)
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` for an empty or unknown key path, or
  ///   one that nothing can notify.
  public func observe<Object: KeyValueObservable>(
    _ object: Object?,
    keyPath: String,
    options: KeyValueObservingOptions = [],
    context: UnsafeMutableRawPointer? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) throws(KeyValueCodingError) {
    try observe(object, keyPaths: [keyPath], options: options, context: context, fileID: fileID, line: line)
  }

  /// Observes each string key path of `keyPaths` on `object` and delivers
  /// every change to the observer's
  /// ``KeyValueObserver/observeValue(forKeyPath:of:change:context:)`` with
  /// `context` — FBKVOController's `observe:keyPaths:options:context:`.
  ///
  /// Every key path is checked before any is observed; an empty list
  /// throws.
  ///
  /// ```swift
  /// try kvo.observe(person, keyPaths: ["name", "age"], options: .new, context: &Self.personContext)
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` for an empty list, or for a key path
  ///   that is empty, unknown or nothing can notify; nothing is observed then.
  public func observe<Object: KeyValueObservable>(
    _ object: Object?,
    keyPaths: [String],
    options: KeyValueObservingOptions = [],
    context: UnsafeMutableRawPointer? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) throws(KeyValueCodingError) {
    let site = RegistrationSite(fileID: fileID, line: line)
    try observeByString(object, keyPaths, options: options, context: context, site: site) { observer, object, keyPath, change, context in
      observer.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
    }
  }
}
