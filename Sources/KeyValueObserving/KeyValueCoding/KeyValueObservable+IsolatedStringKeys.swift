/// The string-key entry points that `@KeyValueObservable` re-declares as
/// members of a class isolated to a global actor (`@MainActor` and the
/// like), so that they share the class's isolation: a call from outside it
/// is a compile-time error (or needs `await`), as a typed key path to one of
/// its properties already is. Each forwards to the protocol extension's
/// implementation.
///
/// Not API: generated members call it.
public enum _KeyValueIsolatedStringKeys {
  public static func value(forKey key: String, on object: some KeyValueObservable) throws(KeyValueCodingError) -> Any? {
    try object.value(forKey: key)
  }

  public static func value(forKeyPath keyPath: String, on object: some KeyValueObservable) throws(KeyValueCodingError)
    -> Any?
  {
    try object.value(forKeyPath: keyPath)
  }

  public static func setValue(_ value: Any?, forKey key: String, on object: some KeyValueObservable)
    throws(KeyValueCodingError)
  {
    try object.setValue(value, forKey: key)
  }

  public static func setValue(_ value: Any?, forKeyPath keyPath: String, on object: some KeyValueObservable)
    throws(KeyValueCodingError)
  {
    try object.setValue(value, forKeyPath: keyPath)
  }

  public static func willChangeValue(forKey key: String, on object: some KeyValueObservable) throws(KeyValueCodingError) {
    try object.openChange(forKey: key)
  }

  public static func didChangeValue(forKey key: String, on object: some KeyValueObservable) throws(KeyValueCodingError) {
    try object.closeChange(forKey: key)
  }

  public static func withChange<Result>(
    forKey key: String,
    on object: some KeyValueObservable,
    _ body: () throws(KeyValueCodingError) -> Result
  ) throws(KeyValueCodingError) -> Result {
    try object.withChange(forKey: key, body)
  }

  @available(*, deprecated, message: "the member the macro writes for 0.1.0's withChange(forKey:_:) calls it")
  @_disfavoredOverload
  public static func withChange<Result>(
    forKey key: String,
    on object: some KeyValueObservable,
    _ body: () throws -> Result
  ) throws -> Result {
    try object.withChange(forKey: key, body)
  }

  public static func addObserver(
    _ observer: any KeyValueObserver,
    forKeyPath keyPath: String,
    options: KeyValueObservingOptions,
    context: UnsafeMutableRawPointer?,
    on object: some KeyValueObservable,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) throws(KeyValueCodingError) {
    try object.addObserver(observer, forKeyPath: keyPath, options: options, context: context, fileID: fileID, line: line)
  }
}
