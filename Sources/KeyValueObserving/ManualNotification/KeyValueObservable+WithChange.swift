extension KeyValueObservable {
  /// Runs `body` as one change of the value at `keyPath`: observers that
  /// asked for `.prior` are notified before it, the others once after it,
  /// with the value read before `body` as old and the one it leaves as new.
  /// Returns what `body` returns.
  ///
  /// The closure form of a ``willChangeValue(for:)`` /
  /// ``didChangeValue(for:)`` pair, and the one to use from async code: the
  /// body is synchronous, so the change opens and closes on one thread.
  /// Assignments to the key inside `body` fold into this one change; a
  /// `body` that throws still closes it, and observers hear of whatever it
  /// changed before throwing.
  ///
  /// ```swift
  /// let total = person.withChange(for: \.age) {
  ///     person.age += 1
  ///     person.age += 1
  ///     return person.age
  /// }  // one notification, old 0, new 2
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The key that changes: a stored property, or a computed
  ///     key whose observers should hear of a change their dependencies do
  ///     not announce.
  ///   - body: The synchronous work that changes it.
  /// - Returns: What `body` returns.
  @discardableResult
  public func withChange<Value, Result, Failure: Error>(
    for keyPath: KeyPath<Self, Value>,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    openChange(for: keyPath)
    defer { closeChange(for: keyPath) }
    return try body()
  }

  /// Runs `body` as one to-many change of the array at `keyPath`: the
  /// closure form of ``willChange(_:valuesAt:for:)`` /
  /// ``didChange(_:valuesAt:for:)``, usable from async code.
  ///
  /// ```swift
  /// person.withChange(.insertion, valuesAt: [2..<4], for: \.tags) {
  ///     person.tags.insert(contentsOf: ["a", "b"], at: 2)
  /// }  // observers of \.tags: kind .insertion, indexes 2..<4, new ["a", "b"]
  /// ```
  ///
  /// - Parameters:
  ///   - kind: `.insertion`, `.removal` or `.replacement` (`.setting`
  ///     announces a whole new value and ignores `indexes`).
  ///   - indexes: Where the elements are inserted, removed or replaced.
  ///   - keyPath: The array property.
  ///   - body: The synchronous work that changes it.
  /// - Returns: What `body` returns.
  @discardableResult
  public func withChange<Element, Result, Failure: Error>(
    _ kind: KeyValueChange,
    valuesAt indexes: KeyValueIndexSet,
    for keyPath: KeyPath<Self, [Element]>,
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    willChange(kind, at: indexes.positions, for: keyPath)
    defer { didChange(kind, at: indexes.positions, for: keyPath) }
    return try body()
  }

  /// Runs `body` as one change of the property called `key`, stored or
  /// computed (every key key-value coding reaches): the
  /// closure form of ``willChangeValue(forKey:)`` /
  /// ``didChangeValue(forKey:)``, usable from async code.
  ///
  /// ```swift
  /// try person.withChange(forKey: "age") {
  ///     person.age += 1
  /// }
  /// try person.withChange(forKey: "nmae") { }  // throws .unknownKey, body not run
  /// ```
  ///
  /// Like every string-key form it throws only ``KeyValueCodingError``, so
  /// `body` may throw that and nothing else: the key-value coding calls it
  /// makes. A `body` that throws still closes the change. Swift 6.3 infers
  /// a throwing closure's error as `any Error`, so a body that throws says
  /// its type, `() throws(KeyValueCodingError) in`; handle other errors
  /// inside `body`.
  ///
  /// ```swift
  /// try person.withChange(forKey: "age") { () throws(KeyValueCodingError) in
  ///     try person.setValue(37, forKey: "age")
  /// }
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` when `key` is empty or names no
  ///   property key-value coding can reach (before `body` runs), or what
  ///   `body` throws.
  /// - Returns: What `body` returns.
  @discardableResult
  public func withChange<Result>(
    forKey key: String,
    _ body: () throws(KeyValueCodingError) -> Result
  ) throws(KeyValueCodingError) -> Result {
    try openChange(forKey: key)
    defer { try? closeChange(forKey: key) }
    return try body()
  }

  /// The 0.1.0 form of `withChange(forKey:_:)`, whose body may throw any
  /// error, and which throws untyped. Chosen only for a body that throws
  /// (disfavoured, so a body that does not gets the typed form). Left out
  /// of the documentation, where its name would make every link to the
  /// typed form ambiguous.
  ///
  /// ```swift
  /// try person.withChange(forKey: "age") { () throws(KeyValueCodingError) in
  ///     try person.setValue(37, forKey: "age")
  /// }
  /// ```
  @available(
    *, deprecated,
    message: "write a throwing body '() throws(KeyValueCodingError) in' to call the typed form; handle other errors inside it"
  )
  @_disfavoredOverload
  @_documentation(visibility: internal)
  @discardableResult
  public func withChange<Result>(forKey key: String, _ body: () throws -> Result) throws -> Result {
    try openChange(forKey: key)
    defer { try? closeChange(forKey: key) }
    return try body()
  }
}
