/// Why a class's own properties may be out of the key table's reach: the
/// class, or a superclass between it and `NSObject`'s place, is not
/// marked `@KeyValueObservable`. Both the typed and the string forms of
/// the mistake name it, in the same words.
enum UnmarkedClass {
  /// `type` is an unmarked subclass of `marked`, the class its key table
  /// belongs to: the properties `type` declares itself have no keys.
  case unmarkedSubclass(type: Any.Type, marked: Any.Type)
  /// `type` (marked) inherits from `plain`, which is not: what `plain`
  /// declares has no keys.
  case plainSuperclass(type: Any.Type, plain: Any.Type)

  /// The cause for `Object`, or `nil` when its class and superclasses are
  /// marked as far as its key table reaches.
  static func of<Object: KeyValueObservable>(_: Object.Type) -> UnmarkedClass? {
    let marked: AnyObject.Type = Object._$kvoMarkedType
    if ObjectIdentifier(marked) != ObjectIdentifier(Object.self) {
      return .unmarkedSubclass(type: Object.self, marked: marked)
    }
    if let plain = _getSuperclass(marked), !(plain is any KeyValueObservable.Type) {
      return .plainSuperclass(type: Object.self, plain: plain)
    }
    return nil
  }

  /// Where the properties are declared, and what to mark.
  ///
  /// ```swift
  /// // UnmarkedShelf is not marked @KeyValueObservable (its superclass Shelf is)
  /// ```
  var cause: String {
    switch self {
    case .unmarkedSubclass(let type, let marked):
      "\(type) is not marked @KeyValueObservable (its superclass \(marked) is)"
    case .plainSuperclass(let type, let plain):
      "\(type) inherits from \(plain), which is not marked @KeyValueObservable"
    }
  }

  var isUnmarkedSubclass: Bool {
    if case .unmarkedSubclass = self { true } else { false }
  }

  /// What to write instead.
  var fix: String {
    switch self {
    case .unmarkedSubclass(let type, _): "mark \(type) with @KeyValueObservable"
    case .plainSuperclass(_, let plain):
      MarkableClass.advice(
        for: plain, mark: "mark \(plain) with @KeyValueObservable too",
        otherwise: "read what \(plain) declares with a typed key path"
      )
    }
  }
}

extension KeyValueObservable {
  /// The error for a string key the class has no key for, reported with
  /// the hint the typed form gives when the class is out of its key
  /// table's reach (``KeyValueObservingDiagnostic/Kind/unreachableKey``):
  /// the thrown error names the key, the report why it is missing.
  static func unknownKeyError(_ key: String) -> KeyValueCodingError {
    if let unmarked = UnmarkedClass.of(Self.self) {
      reportProblem(
        .unreachableKey,
        "\"\(key.abbreviated)\" is no key of \(Self.self) that key-value coding can reach: \(unmarked.cause), so the "
          + "properties declared there have no keys; \(unmarked.fix)"
      )
    }
    return .unknownKey(key: key, type: "\(Self.self)")
  }
}
