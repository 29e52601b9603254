public import Dispatch

extension KeyValueObservable where Self: Sendable {
  /// Observes `keyPath` and calls `changeHandler` on `queue`, asynchronously,
  /// for each change — in the order the changes happened, each once, even
  /// on a concurrent queue.
  ///
  /// Once the token is invalidated (or the object deinitialises), nothing
  /// more is delivered, including changes already waiting for the queue.
  /// Changes waiting for the queue keep the object alive.
  ///
  /// ```swift
  /// let token = model.observe(\.progress, options: .new, on: .global()) { model, change in
  ///     log("progress \(change.newValue!)")
  /// }
  /// ```
  public func observe<Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [],
    on queue: DispatchQueue,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    changeHandler: @escaping @Sendable (Self, KeyValueObservedChange<Value>) -> Void
  ) -> KeyValueObservation {
    observe(keyPath, options: options, source: .queue(queue), site: RegistrationSite(fileID: fileID, line: line)) { delivery in
      queue.async {
        delivery.drain { object, change in changeHandler(object, change) }
      }
    }
  }

  /// Observes `keyPath` and calls `changeHandler` on the main actor,
  /// asynchronously, for each change, in the order the changes happened,
  /// each once.
  ///
  /// Once the token is invalidated (or the object deinitialises), nothing
  /// more is delivered, including changes already waiting for the main
  /// actor.
  ///
  /// ```swift
  /// let token = download.observeOnMainActor(\.fraction, options: .new) { download, change in
  ///     progressView.progress = change.newValue!  // on the main actor
  /// }
  /// ```
  public func observeOnMainActor<Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [],
    fileID: StaticString = #fileID,
    line: UInt = #line,
    changeHandler: @escaping @MainActor @Sendable (Self, KeyValueObservedChange<Value>) -> Void
  ) -> KeyValueObservation {
    observe(keyPath, options: options, source: .mainActor, site: RegistrationSite(fileID: fileID, line: line)) { delivery in
      Task { @MainActor in
        delivery.drain { object, change in changeHandler(object, change) }
      }
    }
  }

  /// Observes `keyPath`, handing each change to a ``SerialDelivery`` whose
  /// drains `schedule` runs where the caller wants them; the registration's
  /// end cancels it.
  private func observe<Value: Sendable>(
    _ keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions,
    source: ObserverSource,
    site: RegistrationSite,
    schedule: @escaping @Sendable (SerialDelivery<(Self, KeyValueObservedChange<Value>)>) -> Void
  ) -> KeyValueObservation {
    let delivery = SerialDelivery(schedule: schedule)
    let hooks = ObservationHooks(source: source, ended: { delivery.cancel() })
    return observe(keyPath, options: options, hooks: hooks, site: site) { object, change in
      delivery.append((object, change))
    }
  }
}
