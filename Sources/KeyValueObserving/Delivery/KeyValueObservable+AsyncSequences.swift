extension KeyValueObservable {
  /// The changes of `keyPath`, as an asynchronous sequence.
  ///
  /// Registers at once: changes made after this call are buffered until
  /// the sequence is iterated (with `.initial`, the first element is the
  /// value now). The sequence ends when the object deinitialises, and its
  /// registration ends when the iterating task is cancelled or the
  /// sequence and its iterator are dropped. Any key path
  /// ``observe(_:options:isolation:fileID:line:changeHandler:)`` accepts works.
  ///
  /// ```swift
  /// for await change in person.changes(for: \.age, options: [.old, .new]) {
  ///     print(change.oldValue!, "→", change.newValue!)
  /// }
  /// // the loop ends when person is freed
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to observe.
  ///   - options: What each change carries; `.new` by default.
  ///   - bufferingPolicy: What happens to changes made faster than they
  ///     are consumed; by default every change is kept.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph`` in a
  ///     debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  @inlinable
  public func changes<Value: Sendable>(
    for keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = .new,
    bufferingPolicy: AsyncStream<KeyValueObservedChange<Value>>.Continuation.BufferingPolicy = .unbounded,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> AsyncStream<KeyValueObservedChange<Value>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: KeyValueObservedChange<Value>.self,
      bufferingPolicy: bufferingPolicy
    )
    let hooks = ObservationHooks(source: .changesSequence, ended: { continuation.finish() })
    let site = RegistrationSite(fileID: fileID, line: line)
    let token = observe(keyPath, options: options, hooks: hooks, site: site) { _, change in
      continuation.yield(change)
    }
    continuation.onTermination = { _ in token.invalidate() }
    return stream
  }

  /// The values of `keyPath`, as an asynchronous sequence that starts with
  /// the value now.
  ///
  /// By default only the newest value waits to be consumed: a consumer
  /// that falls behind sees the latest value, not every one in between.
  /// The sequence ends when the object deinitialises; its registration
  /// ends when the iterating task is cancelled or the sequence is dropped.
  ///
  /// ```swift
  /// for await name in person.values(for: \.name) {
  ///     label.text = name  // the current name first, then each new one
  /// }
  /// ```
  ///
  /// With ``KeyValueObservingOptions/deallocation``, an object on the
  /// path that is freed — a `weak` link's — yields the value read again
  /// (`nil` past the freed link), as RxSwift's `observeWeakly` does:
  ///
  /// ```swift
  /// for await name in cell.values(for: \.item?.name, options: .deallocation) {
  ///     label.text = name ?? "—"  // "—" once the item is freed
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to observe.
  ///   - options: ``KeyValueObservingOptions/deallocation``, or nothing:
  ///     the one option that changes which values come. (Every value is
  ///     the new one, and the first the value now, whatever else is
  ///     given.)
  ///   - bufferingPolicy: How many values wait for the consumer; the
  ///     newest one by default.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph`` in a
  ///     debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  @inlinable
  public func values<Value: Sendable>(
    for keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [],
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1),
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
    let hooks = ObservationHooks(source: .valuesSequence, ended: { continuation.finish() })
    let site = RegistrationSite(fileID: fileID, line: line)
    let registered = options.intersection(.deallocation).union([.initial, .new])
    let token = observe(keyPath, options: registered, hooks: hooks, site: site) { _, change in
      // `.new` was asked for: every change holds the value.
      if let value = change.newValue {
        continuation.yield(value)
      }
    }
    continuation.onTermination = { _ in token.invalidate() }
    return stream
  }
}
