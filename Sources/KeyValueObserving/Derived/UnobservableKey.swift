extension KeyValueObservable {
  /// Why observing `key`, a key path of this class whose reading touches
  /// no observable property, can never notify, and what to do about it:
  /// the message of ``KeyValueObservingDiagnostic/Kind/unobservableKeyPath``.
  ///
  /// Three causes read alike from outside, so each gets its own words: the
  /// class is an unmarked subclass of a marked one (its own properties
  /// announce nothing), the class inherits from a class the macro did not
  /// mark (what that class declares announces nothing), or the key reads
  /// only what the class does not observe (an ignored property, a constant,
  /// a computed property over them).
  static func unobservableKeyMessage(_ key: String) -> String {
    let observed = "observe(\(key)) on \(Self.self) never notifies: "
    switch UnmarkedClass.of(Self.self) {
    case let unmarked? where unmarked.isUnmarkedSubclass:
      return observed + "\(unmarked.cause), so the properties it declares itself announce no changes; \(unmarked.fix)"
    case let unmarked?:
      return observed + "it reads no observable property, and \(unmarked.cause), so the properties declared there "
        + "announce no changes; \(unmarked.fix), or announce changes with willChangeValue/didChangeValue(for:)"
    case nil:
      break
    }
    return observed + "reading it touches no observable property (only ignored properties, constants, or "
      + "what other, unmarked classes store); observe a stored property of a @KeyValueObservable class, "
      + "or announce changes with willChangeValue/didChangeValue(for:) (a computed property's writes through "
      + "setValue(_:forKey:) and bindings are announced; a plain assignment is announced by withChange(for:) "
      + "in its setter)"
  }

  /// The report of a chain whose last property announces nothing (see
  /// ``KeyPathComponents/unannouncedLeaf``).
  static func unannouncedLeafMessage(_ key: String, leaf: String?, of type: Any.Type) -> String {
    let property = leaf.map { "\(type).\($0)" } ?? "its last property, of \(type),"
    return "observe(\(key)) on \(Self.self) misses every change of \(property): it is @KeyValueIgnored, so nothing "
      + "announces it, and only a new object on the way notifies; observe a property that is not ignored, or "
      + "announce its changes with withChange(for:)"
  }

  /// The report of a chain through a class that announces nothing (see
  /// ``KeyPathComponents/unannouncingClass(lastRead:)``).
  static func unannouncedChainMessage(_ key: String, through plain: Any.Type) -> String {
    "observe(\(key)) on \(Self.self) misses changes: the key path reads a stored property of \(plain), which is not "
      + "marked @KeyValueObservable, so nothing announces its changes (only replacing the \(plain) itself "
      + "notifies); "
      + MarkableClass.advice(
        for: plain, mark: "mark \(plain) with @KeyValueObservable — every class a chain passes through must be marked",
        otherwise: "observe the \(plain) itself, and announce its changes with withChange(for:) on the object "
          + "that holds it"
      )
  }
}
