/// How messages name keys: as the user wrote them, and never at a length
/// that would bury the message.
extension KeyValueObservable {
  /// `keyPath` as its user wrote it, without its root: its property's name
  /// (`summary`) when it names one property of this class, the properties
  /// and subscripts it goes through otherwise (`owner?.address.city`,
  /// `items[0].name`); a property no key table names (one that a class the
  /// macro did not mark declares) by the name Swift's description gives a
  /// stored one, or else by the class it is read from and its type
  /// (`<a Car property of type Int>`), and Swift's description of the key
  /// path where even that cannot be read.
  ///
  /// On some platforms a key path to a macro-written property describes
  /// itself as `<computed 0x…>`; its components name the properties to
  /// the key tables of their classes.
  static func describe(_ keyPath: AnyKeyPath) -> String {
    writtenDescription(of: keyPath) ?? KeyPathComponents(of: keyPath)?.readable ?? "\(keyPath)"
  }

  /// ``describe(_:)``, or `nil` where a component cannot be named.
  static func writtenDescription(of keyPath: AnyKeyPath) -> String? {
    _$kvoName(for: keyPath) ?? KeyPathComponents(of: keyPath)?.written
  }
}

extension KeyPathComponents {
  /// The key path as written after its root, each property named by the
  /// key table of the class it is read from, an array's position by its
  /// number; `nil` when a component is neither a property of a
  /// `@KeyValueObservable` class nor a subscript.
  var written: String? {
    written(namingUnknownProperties: false)
  }

  /// ``written``, with a property no key table names shown by its name, a
  /// stored one's, or else by the class it is read from and its type:
  /// `<a Car property of type Int>`.
  var readable: String? {
    written(namingUnknownProperties: true)
  }

  private func written(namingUnknownProperties: Bool) -> String? {
    var text = ""
    func append(_ name: String) {
      text += text.isEmpty ? name : "." + name
    }
    // Read only to name a property no key table names.
    let storedNames = namingUnknownProperties ? storedPropertyNames() : [:]
    for (index, step) in steps.enumerated() {
      switch step.component {
      case .computed(let identity, let argumentSize, let leadingInt):
        if let observable = step.input as? any KeyValueObservable.Type,
          let name = observable._$kvoKeys.name(ofPropertyWithIdentity: identity)
        {
          append(name)
        } else if argumentSize > 0 {
          // A subscript; an array's position is its first argument.
          let isPosition =
            (step.input as? any PositionallyIndexed.Type).map { ObjectIdentifier($0.elementType) }
            == ObjectIdentifier(step.output)
          text += "[\(isPosition ? leadingInt.map { "\($0)" } ?? "…" : "…")]"
        } else if namingUnknownProperties {
          append("<a \(step.input) property of type \(step.output)>")
        } else {
          return nil
        }
      case .stored:
        guard namingUnknownProperties else { return nil }
        append(storedNames[index] ?? "<a \(step.input) property of type \(step.output)>")
      case .optionalChain:
        text += "?"
      case .optionalForce:
        text += "!"
      case .optionalWrap:
        // Implied by the `?.` before it.
        break
      }
    }
    return text.isEmpty ? nil : text
  }
}

extension String {
  /// Whether `text` occurs in the string (`contains(_:)` on a string needs
  /// macOS 13 and iOS 16).
  func hasText(_ text: String) -> Bool {
    let haystack = Array(utf8)
    let needle = Array(text.utf8)
    guard needle.count <= haystack.count else { return false }
    return (0...haystack.count - needle.count).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
  }

  /// The string itself when it is short enough to quote in a message;
  /// otherwise its start, an ellipsis and its length.
  var abbreviated: String {
    let limit = 80
    guard utf8.count > limit else { return self }
    return "\(prefix(limit))… (\(count) characters)"
  }
}

extension Int {
  /// This many elements, as a message says it: "1 element", "3 elements".
  var elementCount: String {
    self == 1 ? "1 element" : "\(self) elements"
  }
}
