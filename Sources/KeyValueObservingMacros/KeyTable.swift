import SwiftSyntax
import SwiftSyntaxBuilder

/// The members `@KeyValueObservable` writes into one class, one builder per
/// member: the registrar (root classes only) and the key table — slots,
/// string keys, names and key paths — that a subclass extends.
struct KeyTable {
  let classDecl: ClassDeclSyntax
  /// Whether the class is the first observable one in its hierarchy.
  let isRoot: Bool
  /// Whether Swift Observation tracks the class (see ``ObservationMembers``).
  let tracksObservation: Bool
  /// The observable stored properties, in slot order.
  let properties: [String]

  init(_ classDecl: ClassDeclSyntax, isRoot: Bool, tracksObservation: Bool) {
    self.classDecl = classDecl
    self.isRoot = isRoot
    self.tracksObservation = tracksObservation
    self.properties = classDecl.observableProperties
  }

  private var className: String { classDecl.name.trimmedDescription }
  private var firstSlot: String { Names.firstSlot(ofClass: className) }
  private var access: String { classDecl.witnessAccess(overridable: false) }
  private var overridable: String { classDecl.witnessAccess(overridable: true) }
  private var override: String { isRoot ? "" : "override " }

  /// Every member, in the order the expansion lists them.
  var members: [DeclSyntax] {
    registrarMembers + [
      firstSlotMember, keyCountMember, slotForKeyPathMember, slotForKeyMember, keyForSlotMember,
      keyPathForSlotMember, accessStorageMember, markedTypeMember, nameForKeyPathMember, isReadOnlyMember,
      otherKeyPathMember, getterMember,
    ]
  }

  // MARK: The registrar

  /// The registrar and its two accessors, in the class that starts the
  /// hierarchy; subclasses reuse them. A class tracked by Swift Observation
  /// has its storage made on first use by a setter, so that every setter
  /// reaches the runtime, which reports to Observation.
  var registrarMembers: [DeclSyntax] {
    guard isRoot else { return [] }
    let storage =
      tracksObservation
      ? "\(Names.registrar).storage ?? Swift.Unmanaged.passUnretained(\(Names.registrar).makeStorage(for: self))"
      : "\(Names.registrar).storage"
    return [
      "private nonisolated let \(raw: Names.registrar) = \(raw: Names.registrarType)()",
      "\(raw: access)nonisolated final var \(raw: Names.observedStorage): Swift.Unmanaged<\(raw: Names.storageType)>? { \(raw: storage) }",
      "\(raw: access)nonisolated final func \(raw: Names.makeStorage)() -> \(raw: Names.storageType) { \(raw: Names.registrar).makeStorage(for: self) }",
    ]
  }

  // MARK: Slots

  /// The class's first slot: after its superclass's keys.
  var firstSlotMember: DeclSyntax {
    "private nonisolated static var \(raw: firstSlot): Swift.Int { \(raw: isRoot ? "0" : "super.\(Names.keyCount)") }"
  }

  var keyCountMember: DeclSyntax {
    "\(raw: overridable)nonisolated \(raw: override)class var \(raw: Names.keyCount): Swift.Int { \(raw: firstSlot) + \(raw: properties.count) }"
  }

  /// The slot a key path names: literal cases for a non-generic class, and a
  /// cached probe with key paths rooted at `Self` for a key path rooted at a
  /// subclass (or at a generic class), which names the same property with
  /// another root.
  var slotForKeyPathMember: DeclSyntax {
    let isGeneric = !(classDecl.genericParameterClause?.parameters.isEmpty ?? true)
    let probeCases = properties.enumerated().map { index, name in
      "case \\Root.\(name): return \(firstSlot) + \(index)"
    }
    let probe = """
      KeyValueObserving._KeyPathSlotCache.slot(for: keyPath, in: Self.self, declaredIn: \(classDecl.selfTypeName).self) {
        func slot<Root: \(classDecl.selfTypeName)>(in _: Root.Type) -> Swift.Int? {
          switch keyPath {\(indented(probeCases + ["default: return nil"], by: "    "))
          }
        }
        return slot(in: Self.self)
      }
      """
    let fallback = isRoot ? "nil" : "super.\(Names.slotForKeyPath)(for: keyPath)"
    let probeOrFallback = isRoot ? probe : "\(probe) ?? \(fallback)"
    var body: String
    if isGeneric {
      body = "return \(probeOrFallback)"
    } else {
      // The key path literals of a non-generic class are built once.
      let literalCases = properties.enumerated().map { index, name in
        "case \\\(className).\(name): return \(firstSlot) + \(index)"
      }
      body = "switch keyPath {\(indented(literalCases + ["default: break"], by: ""))\n}"
      if classDecl.isFinal && isRoot {
        body += "\nreturn nil"
      } else if classDecl.isFinal {
        body += "\nreturn super.\(Names.slotForKeyPath)(for: keyPath)"
      } else {
        body += """

          guard Self.self != \(className).self else {
            return \(fallback)
          }
          return \(probeOrFallback)
          """
      }
    }
    return """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.slotForKeyPath)(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {\(raw: indented([body]))
      }
      """
  }

  /// The slot of a string key. A private property keeps its slot but has no
  /// string key.
  var slotForKeyMember: DeclSyntax {
    let privateProperties = classDecl.privateObservableProperties
    let cases = properties.enumerated().filter { !privateProperties.contains($0.element) }.map { index, name in
      "case \(StringLiteralExprSyntax(content: name)): return \(firstSlot) + \(index)"
    }
    return switchMember(
      Names.slotForKeyPath, "forKey key: Swift.String", returning: "Swift.Int?", over: "key",
      cases: cases, fallback: isRoot ? "nil" : "super.\(Names.slotForKeyPath)(forKey: key)"
    )
  }

  var keyForSlotMember: DeclSyntax {
    let cases = properties.enumerated().map { index, name in
      "case \(index): return \(StringLiteralExprSyntax(content: name))"
    }
    return switchMember(
      Names.keyForSlot, "forSlot slot: Swift.Int", returning: "Swift.String?", over: "slot - \(firstSlot)",
      cases: cases, fallback: isRoot ? "nil" : "super.\(Names.keyForSlot)(forSlot: slot)"
    )
  }

  /// Written as patterns: a key path to a property of a class isolated to a
  /// global actor cannot be an expression in this nonisolated member.
  var keyPathForSlotMember: DeclSyntax {
    let cases = properties.enumerated().map { index, name in
      "case (\(index), \\\(classDecl.selfTypeName).\(name)): return capture.keyPath"
    }
    return switchMember(
      Names.keyPathForSlot, "forSlot slot: Swift.Int", returning: "Swift.AnyKeyPath?",
      preamble: "let capture = \(Names.keyPathCapture)()", over: "(slot - \(firstSlot), capture)",
      cases: cases, fallback: isRoot ? "nil" : "super.\(Names.keyPathForSlot)(forSlot: slot)"
    )
  }

  /// Typed access to the properties' backing storage: `access` is matched
  /// against a key path to the storage of the property at `slot`, which
  /// hands it the key path with its types (a key path to the property
  /// itself would read and write a copy, through its accessors). Collection
  /// proxies change an array or a set in place through it, and
  /// `setValue(_:forKey:)` assigns without opening types at run time. A
  /// property that this class overrides has none: the override's accessors
  /// must run.
  ///
  /// Storage the table reaches directly (see
  /// `ClassDeclSyntax.directlyAccessedProperties`) comes with typed
  /// accessors; other storage (isolated to the class's actor) only as a key
  /// path, written as a pattern.
  var accessStorageMember: DeclSyntax {
    let direct = classDecl.directlyAccessedProperties
    let cases = properties.enumerated().map { index, name in
      let storage = Names.storage(of: name)
      guard direct.contains(name) else {
        return "case (\(index), \\\(classDecl.selfTypeName).\(storage)): return true"
      }
      return "case (\(index), _): return access.visit(\\\(classDecl.selfTypeName).\(storage), get: { $0.\(storage) }, set: { $0.\(storage) = $1 }, modify: { $0(&$1.\(storage)) })"
    }
    var fallback = isRoot ? "false" : "super.\(Names.accessStorage)(ofSlot: slot, access)"
    let overridden = classDecl.overriddenProperties
    if !isRoot && !overridden.isEmpty {
      let slots = overridden.map { "super.\(Names.slotForKeyPath)(forKey: \(StringLiteralExprSyntax(content: $0)))" }
      fallback = "![\(slots.joined(separator: ", "))].contains(slot) && \(fallback)"
    }
    return switchMember(
      Names.accessStorage, "ofSlot slot: Swift.Int, _ access: \(Names.storageAccess)", returning: "Swift.Bool",
      over: "(slot - \(firstSlot), access)", cases: cases, fallback: fallback
    )
  }

  /// The class itself: an object whose dynamic type answers with another
  /// class belongs to a subclass the macro did not see, whose overrides
  /// ``accessStorageMember`` cannot know.
  var markedTypeMember: DeclSyntax {
    "\(raw: overridable)nonisolated \(raw: override)class var \(raw: Names.markedType): Swift.AnyObject.Type { \(raw: classDecl.selfTypeName).self }"
  }

  // MARK: Names and other keys

  /// Names for key paths, so that diagnostics and observationInfo can say
  /// `summary` where a key path reads as `<computed 0x…>`.
  var nameForKeyPathMember: DeclSyntax {
    let cases = (properties + classDecl.otherReadableProperties).map { name in
      "case \\\(classDecl.selfTypeName).\(name): return \(StringLiteralExprSyntax(content: name))"
    }
    return switchMember(
      Names.nameForKeyPath, "for keyPath: Swift.AnyKeyPath", returning: "Swift.String?", over: "keyPath",
      cases: cases, fallback: isRoot ? "nil" : "super.\(Names.nameForKeyPath)(for: keyPath)"
    )
  }

  /// The keys whose setter is `private(set)` or `fileprivate(set)`.
  var isReadOnlyMember: DeclSyntax {
    let readOnly = classDecl.readOnlyByStringProperties
    let cases =
      readOnly.isEmpty
      ? [] : ["case " + readOnly.map { "\(StringLiteralExprSyntax(content: $0))" }.joined(separator: ", ") + ": return true"]
    return switchMember(
      Names.isReadOnly, "forKey key: Swift.String", returning: "Swift.Bool", over: "key",
      cases: cases, fallback: isRoot ? "false" : "super.\(Names.isReadOnly)(forKey: key)"
    )
  }

  /// Key paths to the readable properties that are not observable stored
  /// ones, for key-value coding.
  var otherKeyPathMember: DeclSyntax {
    let cases = classDecl.otherReadableProperties.map { name in
      "case (\(StringLiteralExprSyntax(content: name)), \\\(classDecl.selfTypeName).\(name)): return capture.keyPath"
    }
    return switchMember(
      Names.otherKeyPath, "forKey key: Swift.String", returning: "Swift.AnyKeyPath?",
      preamble: "let capture = \(Names.keyPathCapture)()", over: "(key, capture)",
      cases: cases, fallback: isRoot ? "nil" : "super.\(Names.otherKeyPath)(forKey: key)"
    )
  }

  /// Getters of the computed properties (see `computedProperties`), by
  /// key path: observing one reads it through the getter, not the key path.
  /// `@MainActor`, so that they compile where the getter is isolated to the
  /// main actor by the module's default, which the macro cannot see.
  var getterMember: DeclSyntax {
    let cases = classDecl.computedProperties.map { property in
      "case \\\(className).\(property.name): return { @MainActor (object: \(className)) -> \(property.type) in object.\(property.name) }"
    }
    return switchMember(
      Names.getter, "for keyPath: Swift.AnyKeyPath", returning: "Any?", over: "keyPath",
      cases: cases, fallback: isRoot ? "nil" : "super.\(Names.getter)(for: keyPath)"
    )
  }

  // MARK: Shape

  /// `class func name(parameter) -> result { preamble; switch subject { cases; default: return fallback } }`,
  /// overriding the superclass's in a subclass; with no cases, only
  /// `fallback`. Laid out here, one case a line: the macro's expansions are
  /// not formatted afterwards.
  private func switchMember(
    _ name: String,
    _ parameter: String,
    returning result: String,
    preamble: String? = nil,
    over subject: String,
    cases: [String],
    fallback: String
  ) -> DeclSyntax {
    let signature = "\(overridable)nonisolated \(override)class func \(name)(\(parameter)) -> \(result)"
    guard !cases.isEmpty else {
      return "\(raw: signature) { \(raw: fallback) }"
    }
    let lines = (preamble.map { [$0] } ?? []) + ["switch \(subject) {"] + cases + ["default: return \(fallback)", "}"]
    return "\(raw: signature) {\(raw: indented(lines))\n}"
  }
}

/// `lines` as the body of a declaration: each on a line of its own,
/// indented by `indentation` (a line's own line breaks included).
func indented(_ lines: [String], by indentation: String = "  ") -> String {
  lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "\n" + indentation + $0 }.joined()
}
