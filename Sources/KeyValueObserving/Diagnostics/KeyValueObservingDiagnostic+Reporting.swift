#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif os(Windows)
  import ucrt
#endif

// Where diagnostics go: a handler for a call, the process-wide one, or
// standard error (see KeyValueObservingDiagnostic's discussion).
extension KeyValueObservingDiagnostic {
  /// Receives a diagnostic, on the thread that made the mistake, with no
  /// lock of the library held.
  ///
  /// ```swift
  /// let log: KeyValueObservingDiagnostic.Handler = { print("caught", $0) }
  /// ```
  public typealias Handler = @Sendable (KeyValueObservingDiagnostic) -> Void

  /// The process-wide handler and what the default printed, under a lock
  /// the thread sanitizer sees through (it does not see through `Mutex`'s
  /// contended path on Linux).
  private struct State {
    var handler: Handler?
    var printed: Set<KeyValueObservingDiagnostic> = []
  }

  private static let state = LockedState(State())

  @TaskLocal private static var scoped: Handler?

  /// The process-wide handler; `nil` (the initial value) means
  /// ``standardError``. Safe to set from any thread.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.handler = { _ in }  // silence everything
  /// KeyValueObservingDiagnostic.handler = nil       // back to the default
  /// ```
  public static var handler: Handler? {
    get { state.withLock { $0.handler } }
    set {
      // The replaced handler is released after the lock.
      let replaced = state.withLock { state -> Handler? in
        defer { state.handler = newValue }
        return state.handler
      }
      _ = replaced
    }
  }

  /// Runs `operation` with diagnostics made on this task or thread going to
  /// `handler` instead of the process-wide one.
  ///
  /// ```swift
  /// let box = Mutex<[KeyValueObservingDiagnostic]>([])
  /// KeyValueObservingDiagnostic.withHandler({ d in box.withLock { $0.append(d) } }) {
  ///     person.didChangeValue(for: \.name)
  /// }
  /// ```
  public static func withHandler<Result>(
    _ handler: @escaping Handler,
    _ operation: () throws -> Result
  ) rethrows -> Result {
    try $scoped.withValue(handler, operation: operation)
  }

  /// Runs the asynchronous `operation` with diagnostics made on its task
  /// going to `handler`.
  ///
  /// ```swift
  /// await KeyValueObservingDiagnostic.withHandler({ print($0) }) {
  ///     await model.update()
  /// }
  /// ```
  public static func withHandler<Result>(
    _ handler: @escaping Handler,
    _ operation: () async throws -> Result
  ) async rethrows -> Result {
    try await $scoped.withValue(handler, operation: operation)
  }

  /// Sends `diagnostic` where it belongs now.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "…"))
  /// ```
  public static func report(_ diagnostic: KeyValueObservingDiagnostic) {
    let handler = scoped ?? self.handler ?? standardError
    handler(diagnostic)
  }

  /// The default handler: in debug builds, prints each distinct diagnostic
  /// the first time it is reported, to standard error; in release builds,
  /// does nothing.
  ///
  /// ```swift
  /// KeyValueObservingDiagnostic.handler = KeyValueObservingDiagnostic.standardError
  /// ```
  public static let standardError: Handler = { diagnostic in
    #if DEBUG && !os(WASI)
      guard isFirstPrint(of: diagnostic) else { return }
      let line = "\(diagnostic)\n"
      _ = line.utf8CString.withUnsafeBufferPointer { buffer in
        #if os(Windows)
          _write(2, buffer.baseAddress, UInt32(buffer.count - 1))
        #else
          write(2, buffer.baseAddress, buffer.count - 1)
        #endif
      }
    #endif
  }

  /// Whether ``standardError`` has not printed `diagnostic` yet; records it.
  static func isFirstPrint(of diagnostic: KeyValueObservingDiagnostic) -> Bool {
    state.withLock { $0.printed.insert(diagnostic).inserted }
  }
}

/// Reports a misuse of `kind` the library has made harmless.
func reportProblem(_ kind: KeyValueObservingDiagnostic.Kind, _ message: String) {
  KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: kind, message: message))
}
