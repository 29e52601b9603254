import SwiftSyntax
import SwiftSyntaxBuilder

/// The members `@KeyValueObservable` writes into one class: the registrar
/// (root classes only), the slot numbering, and one key table — a line per
/// property — that the runtime (`_KeyValueKeyTable`) answers every question
/// about the class's keys from.
///
/// Compared with what `@Observable` writes into a class (a registrar,
/// `access`/`withMutation` and four `shouldNotifyObservers` overloads), each
/// extra member is here for one reason:
/// - `_$kvoObservedStorage` and `_$kvoStorage()`: the per-object
///   registrations, which a write finds with one load;
/// - `_$kvoFirstSlot_…` and `_$kvoKeyCount`: a subclass numbers its keys
///   after its superclass's, and a setter knows its slot as a constant;
/// - the key table: key paths, string keys, storage and getters, which
///   KVO's string keys, key-value coding, collection proxies and computed
///   keys need and `@Observable` does not offer;
/// - `_$kvoSlot(for:)`, only in a class that can have subclasses: a key
///   path rooted at a subclass names the class's property with another
///   root, which only code generic over the subclass can write.
struct KeyTable {
  let classDecl: ClassDeclSyntax
  /// Whether the class is the first observable one in its hierarchy.
  let isRoot: Bool
  /// Whether Swift Observation tracks the class (see ``ObservationMembers``).
  let tracksObservation: Bool
  /// Whether the class may hold a static constant: not when it, or a type
  /// around it, is generic, or when it sits in an extension.
  let canHoldStaticStorage: Bool
  /// The observable stored properties, in slot order.
  let properties: [String]

  init(_ classDecl: ClassDeclSyntax, isRoot: Bool, tracksObservation: Bool, canHoldStaticStorage: Bool) {
    self.classDecl = classDecl
    self.isRoot = isRoot
    self.tracksObservation = tracksObservation
    self.canHoldStaticStorage = canHoldStaticStorage
    self.properties = classDecl.observableProperties
  }

  private var className: String { classDecl.name.trimmedDescription }
  private var selfType: String { classDecl.selfTypeName }
  private var firstSlot: String { Names.firstSlot(ofClass: className) }
  private var access: String { classDecl.witnessAccess(overridable: false) }
  private var overridable: String { classDecl.witnessAccess(overridable: true) }
  private var override: String { isRoot ? "" : "override " }

  /// Every member, in the order the expansion lists them.
  var members: [DeclSyntax] {
    registrarMembers + [firstSlotMember, keyCountMember] + tableMembers + (slotForKeyPathMember.map { [$0] } ?? [])
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
      ? "\(Names.registrar).storageMadeOnFirstUse(for: self)"
      : "\(Names.registrar).storage"
    return [
      "private nonisolated let \(raw: Names.registrar) = \(raw: Names.registrarType)()",
      "\(raw: access)nonisolated final var \(raw: Names.observedStorage): Swift.Unmanaged<\(raw: Names.storageType)>? { \(raw: storage) }",
      "\(raw: access)nonisolated final func \(raw: Names.makeStorage)() -> \(raw: Names.storageType) { \(raw: Names.registrar).makeStorage(for: self) }",
    ]
  }

  // MARK: Slots

  /// The class's first slot: after its superclass's keys. A constant the
  /// compiler folds into each setter (a chain of them in a subclass).
  var firstSlotMember: DeclSyntax {
    "private nonisolated static var \(raw: firstSlot): Swift.Int { \(raw: isRoot ? "0" : "super.\(Names.keyCount)") }"
  }

  var keyCountMember: DeclSyntax {
    "\(raw: overridable)nonisolated \(raw: override)class var \(raw: Names.keyCount): Swift.Int { \(raw: firstSlot) + \(raw: properties.count) }"
  }

  // MARK: The key table

  /// `_$kvoKeys`, and the constant that holds the table where the class
  /// can hold one; a generic class's table is built once per
  /// specialization, by the runtime.
  var tableMembers: [DeclSyntax] {
    let signature = "\(overridable)nonisolated \(override)class var \(Names.keys): \(Names.keyTableType)"
    guard canHoldStaticStorage else {
      let superTable = isRoot ? "" : ", after: super.\(Names.keys)"
      let build = "\(Names.keyTableType).shared(\(selfType).self\(superTable)) {\(indented(tableLines))\n}"
      return ["\(raw: signature) {\(raw: indented([build]))\n}"]
    }
    let superTable = isRoot ? "" : classDecl.superclassName.map { ", after: \($0).\(Names.keys)" } ?? ""
    return [
      "\(raw: signature) { \(raw: Names.keyTable(ofClass: className)) }",
      """
      private nonisolated static let \(raw: Names.keyTable(ofClass: className)) = \(raw: Names.keyTableType)(\(raw: selfType).self\(raw: superTable)) {\(raw: indented(tableLines))
      }
      """,
    ]
  }

  /// One line per property, each matching the key path to the property, as
  /// a `case` pattern, against the key it adds: a `nonisolated` member may
  /// name a property isolated to a global actor (a `@MainActor` class's, or
  /// any class's in a module whose default isolation is the main actor) in
  /// a pattern, but not in an expression. Storage the table reaches
  /// directly (see `ClassDeclSyntax.directlyAccessedProperties`) comes as
  /// two closures, one that reads it and one that hands it in place to a
  /// body, taking the object as `AnyObject` so that the runtime code behind
  /// the line is compiled per value type, not per class; other storage
  /// only as a key path, the line's last pattern. The second pattern is
  /// the property's key path rooted at an optional of the class
  /// (`\Person?.?.name`), of which a chain through an optional link is
  /// made.
  var tableLines: [String] {
    let direct = classDecl.directlyAccessedProperties
    let privateProperties = classDecl.privateObservableProperties
    var lines = properties.map { name in
      let storage = Names.storage(of: name)
      let key = StringLiteralExprSyntax(content: name).description + (privateProperties.contains(name) ? ", keyedByString: false" : "")
      let keyPaths = "\\\(selfType).\(name), \\\(selfType)?.?.\(name)"
      guard direct.contains(name) else {
        return "if case (\(keyPaths), \\\(selfType).\(storage)) = $0.stored(\(key)) {}"
      }
      func object(_ parameter: String) -> String { "Swift.unsafeDowncast(\(parameter), to: \(selfType).self)" }
      return "if case (\(keyPaths)) = $0.stored(\(key), get: { \(object("$0")).\(storage) }, modify: { $0(&\(object("$1")).\(storage)) }) {}"
    }
    let getters = classDecl.computedProperties
    let constants = classDecl.constantProperties
    let unannounced = classDecl.unannouncedStoredProperties
    lines += classDecl.otherReadableProperties.map { name in
      let key = StringLiteralExprSyntax(content: name).description
      guard getters.contains(name) else {
        let kind = constants.contains(name) ? "constant" : unannounced.contains(name) ? "unannounced" : "other"
        return "if case \\\(selfType).\(name) = $0.\(kind)(\(key)) {}"
      }
      return "if case \\\(selfType).\(name) = $0.computed(\(key), { (object: \(selfType)) in object.\(name) }) {}"
    }
    let readOnly = classDecl.readOnlyByStringProperties
    if !readOnly.isEmpty {
      lines.append("$0.readOnly(\(readOnly.map { StringLiteralExprSyntax(content: $0).description }.joined(separator: ", ")))")
    }
    let overridden = isRoot ? [] : classDecl.overriddenProperties
    if !overridden.isEmpty {
      lines.append("$0.overrides(\(overridden.map { StringLiteralExprSyntax(content: $0).description }.joined(separator: ", ")))")
    }
    return lines.isEmpty ? ["_ = $0"] : lines
  }

  /// The slot of a key path rooted at a subclass, in a class that can have
  /// subclasses (and in every subclass): a key path rooted at the class
  /// itself is found in the table, one rooted at a subclass by cases
  /// written generic over the root, once per key path and root.
  var slotForKeyPathMember: DeclSyntax? {
    guard !classDecl.isFinal || !isRoot else { return nil }
    let table = canHoldStaticStorage ? Names.keyTable(ofClass: className) : "\(selfType).\(Names.keys)"
    var probe = "{ nil }"
    if !classDecl.isFinal && !properties.isEmpty {
      let cases = properties.enumerated().map { index, name in "case \\Root.\(name): return \(firstSlot) + \(index)" }
      probe = """
        {
          func slot<Root: \(selfType)>(in _: Root.Type) -> Swift.Int? {
            switch keyPath {\(indented(cases + ["default: return nil"], by: "    "))
            }
          }
          return slot(in: Self.self)
        }
        """
    }
    let fallback = isRoot ? "" : " ?? super.\(Names.slotForKeyPath)(for: keyPath)"
    let body = "\(table).slot(for: keyPath, in: Self.self) \(probe)\(fallback)"
    return """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.slotForKeyPath)(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {\(raw: indented([body]))
      }
      """
  }
}

extension ClassDeclSyntax {
  /// The superclass as the inheritance clause writes it, in a class that
  /// has one: its first inherited type.
  var superclassName: String? {
    inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
  }
}

/// `lines` as the body of a declaration: each on a line of its own,
/// indented by `indentation` (a line's own line breaks included).
func indented(_ lines: [String], by indentation: String = "  ") -> String {
  lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "\n" + indentation + $0 }.joined()
}
