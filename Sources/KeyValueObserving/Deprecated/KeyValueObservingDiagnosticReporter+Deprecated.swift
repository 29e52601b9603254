/// The former home of the diagnostic handlers, which are now members of
/// ``KeyValueObservingDiagnostic``. Each member forwards to its new name;
/// the enum goes in 2.0.
///
/// ```swift
/// KeyValueObservingDiagnosticReporter.handler = { print($0) }  // before
/// KeyValueObservingDiagnostic.handler = { print($0) }          // now
/// ```
@_documentation(visibility: internal)
@available(*, deprecated, renamed: "KeyValueObservingDiagnostic")
public enum KeyValueObservingDiagnosticReporter {
  /// The former name of ``KeyValueObservingDiagnostic/Handler``.
  ///
  /// ```swift
  /// let log: KeyValueObservingDiagnostic.Handler = { print($0) }
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "KeyValueObservingDiagnostic.Handler")
  public typealias Handler = KeyValueObservingDiagnostic.Handler

  /// The former name of ``KeyValueObservingDiagnostic/handler``.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.handler = { _ in }
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "KeyValueObservingDiagnostic.handler")
  public static var handler: KeyValueObservingDiagnostic.Handler? {
    get { KeyValueObservingDiagnostic.handler }
    set { KeyValueObservingDiagnostic.handler = newValue }
  }

  /// The former name of the synchronous `KeyValueObservingDiagnostic.withHandler(_:_:)`.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.withHandler({ print($0) }) { person.didChangeValue(for: \.name) }
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "KeyValueObservingDiagnostic.withHandler(_:_:)")
  public static func withHandler<Result>(
    _ handler: @escaping KeyValueObservingDiagnostic.Handler,
    operation: () throws -> Result
  ) rethrows -> Result {
    try KeyValueObservingDiagnostic.withHandler(handler, operation)
  }

  /// The former name of the asynchronous `KeyValueObservingDiagnostic.withHandler(_:_:)`.
  ///
  /// ```swift
  /// await KeyValueObservingDiagnostic.withHandler({ print($0) }) { await model.update() }
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "KeyValueObservingDiagnostic.withHandler(_:_:)")
  public static func withHandler<Result>(
    _ handler: @escaping KeyValueObservingDiagnostic.Handler,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    try await KeyValueObservingDiagnostic.withHandler(handler, operation)
  }

  /// The former name of ``KeyValueObservingDiagnostic/report(_:)``.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "…"))
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "KeyValueObservingDiagnostic.report(_:)")
  public static func report(_ diagnostic: KeyValueObservingDiagnostic) {
    KeyValueObservingDiagnostic.report(diagnostic)
  }

  /// The former name of ``KeyValueObservingDiagnostic/standardError``.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.handler = KeyValueObservingDiagnostic.standardError
  /// ```
  @_documentation(visibility: internal)
  @available(*, deprecated, renamed: "KeyValueObservingDiagnostic.standardError")
  public static var standardError: KeyValueObservingDiagnostic.Handler { KeyValueObservingDiagnostic.standardError }
}
