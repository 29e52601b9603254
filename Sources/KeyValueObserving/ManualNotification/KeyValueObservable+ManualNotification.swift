extension KeyValueObservable {
  /// Announces that the value at `keyPath` is about to change: observers
  /// that asked for `.prior` are notified now, and the old value is read for
  /// those that asked for `.old`.
  ///
  /// Pair it with ``didChangeValue(for:)`` on the same thread. Use it for a
  /// key whose automatic notification is off (see
  /// ``KeyValueObservingCustomization/automaticallyNotifiesObservers(for:)``),
  /// for a computed key whose value changes where no observable property
  /// does, or to make several assignments one change: pairs nested on one
  /// key, and assignments to the key inside a pair, notify once, at the
  /// outermost `didChangeValue`.
  ///
  /// ```swift
  /// person.willChangeValue(for: \.age)
  /// person.age += 1
  /// person.age += 1
  /// person.didChangeValue(for: \.age)  // one notification, old 0, new 2
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(for:_:)")
  public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
    openChange(for: keyPath)
  }

  /// ``willChangeValue(for:)`` without the `noasync` rule, for the library's
  /// own synchronous callers.
  func openChange<Value>(for keyPath: KeyPath<Self, Value>) {
    if let slot = Self._$kvoSlot(for: keyPath) {
      _$kvoObservedStorage?.takeUnretainedValue().willChange(self, slot: slot) { $0[keyPath: keyPath] }
    } else {
      announceManualChange(of: keyPath, isPrior: true)
    }
  }

  /// A manual change of `keyPath`, which is no stored property: told to
  /// the observations filed under it here, and — for a chain that ends in
  /// a computed property (`\.sidebar.collapsed`) — announced as that
  /// property's change on the object the links hold now, as a binding's
  /// write through the chain is (see ``ComputedWriteAnnouncement``): so
  /// that the chain's observers by string, filed under its first key,
  /// hear it as the typed ones do, and so do the property's own
  /// observers. An observation that hears both joins them into one
  /// change.
  private func announceManualChange(of keyPath: AnyKeyPath, isPrior: Bool) {
    _$kvoObservedStorage?.takeUnretainedValue().forwardManualChange(of: keyPath, isPrior: isPrior)
    if let leaf = ComputedLeaf(keyPath), let key = leaf.readKey(from: self),
      let filed = type(of: key.object)._$kvoFilingKeyPath(ofComputed: key.keyPath)
    {
      key.object._$kvoObservedStorage?.takeUnretainedValue().forwardManualChange(of: filed, isPrior: isPrior)
    }
  }

  /// Announces that the value at `keyPath` changed: the outermost call of a
  /// pair reads the new value and notifies the observers.
  ///
  /// A call with no ``willChangeValue(for:)`` open on this thread for the
  /// same key notifies nothing and reports
  /// ``KeyValueObservingDiagnostic/Kind/unmatchedDidChange``.
  ///
  /// ```swift
  /// person.willChangeValue(for: \.summary)
  /// person.didChangeValue(for: \.summary)  // observers of summary are notified
  /// ```
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(for:_:)")
  public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
    closeChange(for: keyPath)
  }

  /// ``didChangeValue(for:)`` without the `noasync` rule.
  func closeChange<Value>(for keyPath: KeyPath<Self, Value>) {
    if let slot = Self._$kvoSlot(for: keyPath) {
      guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
      if !storage.didChange(self, slot: slot, newValue: { $0[keyPath: keyPath] }) {
        reportProblem(.unmatchedDidChange, "didChangeValue(for: \(Self.describe(keyPath))) without a matching willChangeValue on this thread; nothing was notified")
      }
    } else {
      announceManualChange(of: keyPath, isPrior: false)
    }
  }

  /// ``willChangeValue(for:)`` for the property called `key`: every key
  /// key-value coding reaches, stored or computed, as in Apple's KVO.
  ///
  /// ```swift
  /// try person.willChangeValue(forKey: "age")
  /// person.age += 1
  /// try person.didChangeValue(forKey: "age")
  /// try canvas.willChangeValue(forKey: "width")  // a computed key
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` when `key` is empty or names no
  ///   property key-value coding can reach.
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(forKey:_:)")
  public func willChangeValue(forKey key: String) throws(KeyValueCodingError) {
    try openChange(forKey: key)
  }

  /// ``willChangeValue(forKey:)`` without the `noasync` rule.
  func openChange(forKey key: String) throws(KeyValueCodingError) {
    guard let (slot, keyPath) = try Self.storedKey(key) else {
      // A computed key: its observations, filed under its key path.
      let keyPath = try Self.readableKeyPath(forKey: key)
      _$kvoObservedStorage?.takeUnretainedValue().forwardManualChange(of: keyPath, isPrior: true)
      return
    }
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
    func willChange<Value>(_: Value.Type) {
      storage.willChange(self, slot: slot) { $0[keyPath: keyPath] as! Value }
    }
    _openExistential(type(of: keyPath).valueType, do: willChange)
  }

  /// ``didChangeValue(for:)`` for the property called `key`, stored or
  /// computed.
  ///
  /// ```swift
  /// try person.willChangeValue(forKey: "age")
  /// person.age += 1
  /// try person.didChangeValue(forKey: "age")
  /// ```
  ///
  /// - Throws: ``KeyValueCodingError`` when `key` is empty or names no
  ///   property key-value coding can reach.
  @available(*, noasync, message: "a will/did pair split across an 'await' would resume on another thread; use withChange(forKey:_:)")
  public func didChangeValue(forKey key: String) throws(KeyValueCodingError) {
    try closeChange(forKey: key)
  }

  /// ``didChangeValue(forKey:)`` without the `noasync` rule.
  func closeChange(forKey key: String) throws(KeyValueCodingError) {
    guard let (slot, keyPath) = try Self.storedKey(key) else {
      let keyPath = try Self.readableKeyPath(forKey: key)
      _$kvoObservedStorage?.takeUnretainedValue().forwardManualChange(of: keyPath, isPrior: false)
      return
    }
    guard let storage = _$kvoObservedStorage?.takeUnretainedValue() else { return }
    func didChange<Value>(_: Value.Type) -> Bool {
      storage.didChange(self, slot: slot) { $0[keyPath: keyPath] as! Value }
    }
    if !_openExistential(type(of: keyPath).valueType, do: didChange) {
      reportProblem(.unmatchedDidChange, "didChangeValue(forKey: \"\(key.abbreviated)\") without a matching willChangeValue on this thread; nothing was notified")
    }
  }

  /// The slot and key path of the stored property called `key`; `nil` for
  /// another key (a computed one, which ``readableKeyPath(forKey:)``
  /// finds or refuses).
  static func storedKey(_ key: String) throws(KeyValueCodingError) -> (slot: Int, keyPath: AnyKeyPath)? {
    guard !key.isEmpty else { throw .emptyKey(keyPath: key, type: "\(Self.self)") }
    guard let slot = _$kvoSlot(forKey: key), let keyPath = _$kvoKeyPath(forSlot: slot) else { return nil }
    return (slot, keyPath)
  }
}
