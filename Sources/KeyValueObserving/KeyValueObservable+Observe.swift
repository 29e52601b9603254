extension KeyValueObservable {
  /// Observes the property `keyPath` names and calls `changeHandler` for
  /// each change, until the returned token is invalidated or released.
  ///
  /// Notifications are synchronous: the handler runs on the thread that made
  /// the change, after the assignment, with no lock held, so it may observe,
  /// invalidate and assign freely. Every assignment notifies, also of an equal
  /// value. Several registrations on one key are called in the order they
  /// were made.
  ///
  /// ```swift
  /// let person = Person()
  /// let token = person.observe(\.age, options: [.initial, .old, .new]) { person, change in
  ///     print(change.oldValue as Any, change.newValue as Any)
  /// }
  /// // prints "nil Optional(0)" at once (.initial)
  /// person.age = 1  // prints "Optional(0) Optional(1)"
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The property to observe: a stored `var` of a class marked
  ///     ``KeyValueObservable()``, its own or inherited.
  ///   - options: Which values the changes carry and which extra
  ///     notifications are sent; see ``KeyValueObservingOptions``.
  ///   - changeHandler: Called with the object and the change.
  /// - Returns: The token that keeps the registration alive.
  /// - Complexity: O(1) amortised, whatever the number of other
  ///   registrations on the key.
  @inlinable
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [],
    changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
  ) -> KeyValueObservation {
    guard let slot = Self._$kvoSlot(for: keyPath) else {
      reportProblem(
        "observe(\(keyPath)): only stored properties of @KeyValueObservable classes can be observed "
          + "in this version; the returned token is inert"
      )
      return KeyValueObservation(storage: nil, registration: nil)
    }
    let storage = _$kvoStorage()
    let registration = ClosureRegistration<Self, Value>(options: options, slot: slot, handler: changeHandler)
    // `self` is alive, so its storage is open and the addition succeeds.
    _ = storage.add(registration)
    if options.contains(.initial) {
      let value = self[keyPath: keyPath]
      if registration.isLive {
        registration.call(
          self,
          KeyValueObservedChange(kind: .setting, newValue: options.contains(.new) ? value : nil)
        )
      }
    }
    return KeyValueObservation(storage: storage, registration: registration)
  }
}
