extension KeyValueObservable {
  /// Observes every observable stored key of this object and of every
  /// `@KeyValueObservable` object reachable from it, and calls
  /// `changeHandler` for each change, until the returned token is
  /// invalidated or released.
  ///
  /// ```swift
  /// let token = document.observeGraph(options: [.old, .new]) { change in
  ///     print(change.key, change.change.kind)
  /// }
  /// document.title = "Groceries"                                // prints "title setting"
  /// document.mutableArrayValue(for: \.items).append(Item())     // prints "items insertion"
  /// document.items[0].text = "Milk"                             // prints "text setting"
  /// ```
  ///
  /// The graph is followed as it changes. An object a change brings in is
  /// observed before the handler hears that change. An object no link
  /// leads to any more is dropped. <doc:ObservingAModelGraph> says which
  /// keys are links, and what each option means here.
  ///
  /// - Parameters:
  ///   - options: The values the changes carry (`.old`, `.new`), `.prior`
  ///     notifications, `.initial` (every key of every object, once, at
  ///     once) and `.deallocation` (a `weak` link whose object is freed).
  ///   - isolation: The actor the handler is isolated to: the caller's,
  ///     which Swift passes for you. Debug builds check each call.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph`` in a
  ///     debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  ///   - changeHandler: Called with each change, on the thread that made
  ///     it, with no lock held.
  /// - Returns: The token that keeps the observation alive.
  /// - Complexity: O(*n*) in the objects reachable, at registration. A
  ///   change of a key that holds no objects costs O(1); a change of a link,
  ///   O(*m*) in the objects it brings or drops.
  public func observeGraph(
    options: KeyValueObservingOptions = [.old, .new],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    changeHandler: @escaping (KeyValueGraphChange) -> Void
  ) -> KeyValueObservation {
    observeGraph(
      options: options, site: RegistrationSite(fileID: fileID, line: line),
      handler: GraphHandler(isolation: isolation, changeHandler: changeHandler)
    )
  }

  /// Observes the graph from `self` for `handler`, of any kind.
  func observeGraph(options: KeyValueObservingOptions, site: RegistrationSite, handler: GraphHandler) -> KeyValueObservation {
    // Made inside a tracked closure's run, the graph's reads are its own.
    let hidden = _KeyValueAccessTracking.suspendTracking()
    defer { _KeyValueAccessTracking.resumeTracking(hidden) }
    let graph = GraphObservation(root: self, options: options, site: site, handler: handler)
    let token = KeyValueObservation(owning: graph)
    graph.start(from: self)
    return token
  }
}
