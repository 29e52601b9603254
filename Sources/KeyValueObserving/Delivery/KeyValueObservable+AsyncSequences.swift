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
    bufferingPolicy: KeyValueBufferingPolicy = .unbounded,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservedSequence<KeyValueObservedChange<Value>> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: KeyValueObservedChange<Value>.self,
      bufferingPolicy: bufferingPolicy.streamPolicy(of: KeyValueObservedChange<Value>.self)
    )
    let hooks = ObservationHooks(source: .changesSequence, ended: { continuation.finish() })
    let site = RegistrationSite(fileID: fileID, line: line)
    let token = observe(keyPath, options: options, hooks: hooks, site: site) { _, change in
      continuation.yield(change)
    }
    continuation.onTermination = { _ in token.invalidate() }
    return KeyValueObservedSequence(stream)
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
  /// With `includingDeallocation`, a freed object on the path (a `weak`
  /// link's) yields the value read again, as RxSwift's `observeWeakly`
  /// does: `nil` past the freed link.
  ///
  /// ```swift
  /// for await name in cell.values(for: \.item?.name, includingDeallocation: true) {
  ///     label.text = name ?? "—"  // "—" once the item is freed
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to observe.
  ///   - includingDeallocation: Whether a freed object on the path is a
  ///     change, as ``KeyValueObservingOptions/deallocation`` makes it for
  ///     `observe`. Off by default: no setter ran.
  ///   - bufferingPolicy: How many values wait for the consumer; the
  ///     newest one by default.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph`` in a
  ///     debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  @inlinable
  public func values<Value: Sendable>(
    for keyPath: KeyPath<Self, Value>,
    includingDeallocation: Bool = false,
    bufferingPolicy: KeyValueBufferingPolicy = .bufferingNewest(1),
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservedSequence<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy.streamPolicy(of: Value.self))
    let hooks = ObservationHooks(source: .valuesSequence, ended: { continuation.finish() })
    let site = RegistrationSite(fileID: fileID, line: line)
    let registered: KeyValueObservingOptions = includingDeallocation ? [.initial, .new, .deallocation] : [.initial, .new]
    let token = observe(keyPath, options: registered, hooks: hooks, site: site) { _, change in
      // `.new` was asked for: every change holds the value.
      if let value = change.newValue {
        continuation.yield(value)
      }
    }
    continuation.onTermination = { _ in token.invalidate() }
    return KeyValueObservedSequence(stream)
  }
}
