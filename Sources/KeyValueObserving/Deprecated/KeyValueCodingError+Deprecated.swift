// The 0.1.0 spellings of the error's cases, kept for construction until
// 2.0. A pattern written with an old name still matches where the case
// only gained labels (`case .unknownKey(let key, let type)`); a pattern
// of `.notObservable` has no case left to match.

extension KeyValueCodingError {
  /// The 0.1.0 spelling of ``unknownKey(key:type:)``.
  ///
  /// ```swift
  /// let error = KeyValueCodingError.unknownKey(key: "nmae", type: "Person")
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "unknownKey(key:type:)")
  public static func unknownKey(_ key: String, type: String) -> Self {
    .unknownKey(key: key, type: type)
  }

  /// The 0.1.0 spelling of ``readOnly(key:type:)``.
  ///
  /// ```swift
  /// let error = KeyValueCodingError.readOnly(key: "id", type: "Person")
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "readOnly(key:type:)")
  public static func readOnly(_ key: String, type: String) -> Self {
    .readOnly(key: key, type: type)
  }

  /// The 0.1.0 case that both ``notAnObservableObject(keyPath:key:type:)``
  /// and ``neverNotifies(keyPath:key:type:)`` replace.
  ///
  /// It makes `.neverNotifies` when `key` is the path's last component,
  /// and `.notAnObservableObject` otherwise; a link nothing announces
  /// (`.neverNotifies` before the last component) needs the new case.
  ///
  /// ```swift
  /// let error = KeyValueCodingError.notAnObservableObject(keyPath: "name.count", key: "name", type: "Person")
  /// ```
  @available(
    *, deprecated,
    message: "use .notAnObservableObject (a link holds no @KeyValueObservable object) or .neverNotifies (nothing announces the key)"
  )
  public static func notObservable(keyPath: String, key: String, type: String) -> Self {
    keyPath == key || keyPath.hasSuffix("." + key)
      ? .neverNotifies(keyPath: keyPath, key: key, type: type)
      : .notAnObservableObject(keyPath: keyPath, key: key, type: type)
  }
}
