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
    let marked: AnyObject.Type = _$kvoMarkedType
    if ObjectIdentifier(marked) != ObjectIdentifier(Self.self) {
      return observed + "\(Self.self) is not marked @KeyValueObservable (its superclass \(marked) is), "
        + "so the properties it declares itself announce no changes; mark \(Self.self) with @KeyValueObservable"
    }
    if let plain = _getSuperclass(marked), !(plain is any KeyValueObservable.Type) {
      return observed + "it reads no observable property, and \(Self.self) inherits from \(plain), which is not "
        + "marked @KeyValueObservable, so the properties declared there announce no changes; "
        + "mark \(plain) with @KeyValueObservable too, or announce changes with willChangeValue/didChangeValue(for:)"
    }
    return observed + "reading it touches no observable property (only ignored properties, constants, or "
      + "what other, unmarked classes store); observe a stored property of a @KeyValueObservable class, "
      + "or announce changes with willChangeValue/didChangeValue(for:)"
  }
}
