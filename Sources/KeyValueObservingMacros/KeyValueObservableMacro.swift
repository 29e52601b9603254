import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@KeyValueObservable`: the registrar, the key table, the conformance, and
/// `@_KeyValueObservableProperty` on every observable stored property.
public enum KeyValueObservableMacro {}

// MARK: - Members: registrar and key table

extension KeyValueObservableMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      diagnoseNonClass(declaration, attribute: node, in: context)
      return []
    }
    guard !context.isInsideFunction else {
      context.diagnose(Diagnostic(node: node, message: KeyValueObservingDiagnostic.localClass))
      return []
    }
    for (property, declaration) in classDecl.backingStorageCollisions {
      context.diagnose(
        Diagnostic(node: declaration, message: KeyValueObservingDiagnostic.backingStorageCollision(property: property))
      )
    }
    for (variable, diagnostic, position) in classDecl.unsupportedMembers {
      var fixIts: [FixIt] = []
      if diagnostic.severity == .warning {
        // The attribute takes over the declaration's leading trivia so that
        // it lands on the declaration's own line.
        var ignored = variable.with(\.leadingTrivia, [])
        let attribute = AttributeSyntax("@\(raw: Names.ignoredAttribute)")
          .with(\.leadingTrivia, variable.leadingTrivia)
          .with(\.trailingTrivia, .space)
        ignored.attributes.insert(.attribute(attribute), at: ignored.attributes.startIndex)
        fixIts.append(FixIt(message: FixMessage.addIgnored, changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(ignored))]))
      }
      context.diagnose(Diagnostic(node: position, message: diagnostic, fixIts: fixIts))
    }

    for variable in classDecl.conditionallyCompiledProperties {
      context.diagnose(Diagnostic(node: Syntax(variable), message: KeyValueObservingDiagnostic.insideConditionalCompilation))
    }

    // The compiler lists the protocols the class does not conform to yet: an
    // empty list means a superclass is already observable, so this class
    // adds its keys after the superclass's and reuses its registrar.
    let isRoot = !protocols.isEmpty
    let className = classDecl.name.trimmedDescription
    let properties = classDecl.observableProperties
    let firstSlot = Names.firstSlot(ofClass: className)
    let access = classDecl.witnessAccess(overridable: false)
    let overridable = classDecl.witnessAccess(overridable: true)
    let override = isRoot ? "" : "override "

    var members: [DeclSyntax] = []
    if isRoot {
      members.append(
        "private nonisolated let \(raw: Names.registrar) = \(raw: Names.registrarType)()"
      )
      members.append(
        """
        \(raw: access)nonisolated final var \(raw: Names.observedStorage): Swift.Unmanaged<\(raw: Names.storageType)>? {
          \(raw: Names.registrar).storage
        }
        """
      )
      members.append(
        """
        \(raw: access)nonisolated final func \(raw: Names.makeStorage)() -> \(raw: Names.storageType) {
          \(raw: Names.registrar).makeStorage(for: self)
        }
        """
      )
    }
    members.append(
      """
      private nonisolated static var \(raw: firstSlot): Swift.Int {
        \(raw: isRoot ? "0" : "super.\(Names.keyCount)")
      }
      """
    )
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class var \(raw: Names.keyCount): Swift.Int {
        \(raw: firstSlot) + \(raw: properties.count)
      }
      """
    )

    let isGeneric = !(classDecl.genericParameterClause?.parameters.isEmpty ?? true)
    let probeCases = properties.enumerated().map { index, name in
      "case \\Root.\(name): return \(firstSlot) + \(index)"
    }
    // A key path rooted at a subclass (or at a generic class) names the same
    // property with another root: the probe builds key paths rooted at
    // `Self`, once per key path thanks to the cache.
    let probe = """
      KeyValueObserving._KeyPathSlotCache.slot(for: keyPath, in: Self.self, declaredIn: \(classDecl.selfTypeName).self) {
        func slot<Root: \(classDecl.selfTypeName)>(in _: Root.Type) -> Swift.Int? {
          switch keyPath {
          \((probeCases + ["default: return nil"]).joined(separator: "\n"))
          }
        }
        return slot(in: Self.self)
      }
      """
    let fallback = isRoot ? "nil" : "super.\(Names.slotForKeyPath)(for: keyPath)"
    let probeOrFallback = isRoot ? probe : "\(probe) ?? \(fallback)"
    var slotForKeyPathBody: String
    if isGeneric {
      slotForKeyPathBody = "return \(probeOrFallback)"
    } else {
      // The key path literals of a non-generic class are built once.
      let literalCases = properties.enumerated().map { index, name in
        "case \\\(className).\(name): return \(firstSlot) + \(index)"
      }
      slotForKeyPathBody = """
        switch keyPath {
        \((literalCases + ["default: break"]).joined(separator: "\n"))
        }
        """
      if classDecl.isFinal && isRoot {
        slotForKeyPathBody += "\nreturn nil"
      } else if classDecl.isFinal {
        slotForKeyPathBody += "\nreturn super.\(Names.slotForKeyPath)(for: keyPath)"
      } else {
        slotForKeyPathBody += """

          guard Self.self != \(className).self else {
            return \(fallback)
          }
          return \(probeOrFallback)
          """
      }
    }
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.slotForKeyPath)(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
        \(raw: slotForKeyPathBody)
      }
      """
    )

    // A private property keeps its slot but has no string key.
    let privateProperties = classDecl.privateObservableProperties
    let keyCases = properties.enumerated().filter { !privateProperties.contains($0.element) }.map { index, name in
      "case \(StringLiteralExprSyntax(content: name)): return \(firstSlot) + \(index)"
    }
    let fallbackSlotForKey = isRoot ? "nil" : "super.\(Names.slotForKeyPath)(forKey: key)"
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.slotForKeyPath)(forKey key: Swift.String) -> Swift.Int? {
        switch key {
        \(raw: (keyCases + ["default: return \(fallbackSlotForKey)"]).joined(separator: "\n"))
        }
      }
      """
    )

    let nameCases = properties.enumerated().map { index, name in
      "case \(index): return \(StringLiteralExprSyntax(content: name))"
    }
    let fallbackKey = isRoot ? "nil" : "super.\(Names.keyForSlot)(forSlot: slot)"
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.keyForSlot)(forSlot slot: Swift.Int) -> Swift.String? {
        switch slot - \(raw: firstSlot) {
        \(raw: (nameCases + ["default: return \(fallbackKey)"]).joined(separator: "\n"))
        }
      }
      """
    )
    // Written as patterns: a key path to a property of a class isolated to
    // a global actor cannot be an expression in this nonisolated member.
    let keyPathCases = properties.enumerated().map { index, name in
      "case (\(index), \\\(classDecl.selfTypeName).\(name)): return capture.keyPath"
    }
    let fallbackKeyPath = isRoot ? "nil" : "super.\(Names.keyPathForSlot)(forSlot: slot)"
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.keyPathForSlot)(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
        let capture = \(raw: Names.keyPathCapture)()
        switch (slot - \(raw: firstSlot), capture) {
        \(raw: (keyPathCases + ["default: return \(fallbackKeyPath)"]).joined(separator: "\n"))
        }
      }
      """
    )
    // Names for key paths, so that diagnostics and observationInfo can say
    // `summary` where a key path reads as `<computed 0x…>`.
    let keyPathNameCases = (properties + classDecl.otherReadableProperties).map { name in
      "case \\\(classDecl.selfTypeName).\(name): return \(StringLiteralExprSyntax(content: name))"
    }
    let fallbackName = isRoot ? "nil" : "super.\(Names.nameForKeyPath)(for: keyPath)"
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.nameForKeyPath)(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
        switch keyPath {
        \(raw: (keyPathNameCases + ["default: return \(fallbackName)"]).joined(separator: "\n"))
        }
      }
      """
    )
    let readOnly = classDecl.readOnlyByStringProperties
    let readOnlyCases = readOnly.isEmpty ? [] : ["case " + readOnly.map { "\(StringLiteralExprSyntax(content: $0))" }.joined(separator: ", ") + ": return true"]
    let fallbackReadOnly = isRoot ? "false" : "super.\(Names.isReadOnly)(forKey: key)"
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.isReadOnly)(forKey key: Swift.String) -> Swift.Bool {
        switch key {
        \(raw: (readOnlyCases + ["default: return \(fallbackReadOnly)"]).joined(separator: "\n"))
        }
      }
      """
    )
    let otherCases = classDecl.otherReadableProperties.map { name in
      "case (\(StringLiteralExprSyntax(content: name)), \\\(classDecl.selfTypeName).\(name)): return capture.keyPath"
    }
    let fallbackOther = isRoot ? "nil" : "super.\(Names.otherKeyPath)(forKey: key)"
    members.append(
      """
      \(raw: overridable)nonisolated \(raw: override)class func \(raw: Names.otherKeyPath)(forKey key: Swift.String) -> Swift.AnyKeyPath? {
        let capture = \(raw: Names.keyPathCapture)()
        switch (key, capture) {
        \(raw: (otherCases + ["default: return \(fallbackOther)"]).joined(separator: "\n"))
        }
      }
      """
    )
    if isRoot && classDecl.isolatedToGlobalActor {
      members += isolatedStringKeyMembers(access: access)
    }
    if let codingKeys = codingKeys(of: classDecl) {
      members.append(codingKeys)
    }
    diagnoseOwnCodingKeys(of: classDecl, in: context)
    return members
  }

  /// The string-key entry points as members of a class isolated to a global
  /// actor: they take the class's isolation, so that calling them from
  /// outside it does not compile (a typed key path there already does not).
  private static func isolatedStringKeyMembers(access: String) -> [DeclSyntax] {
    let forward = "\(Names.module)._KeyValueIsolatedStringKeys"
    let error = "\(Names.module).KeyValueCodingError"
    return [
      """
      \(raw: access)final func value(forKey key: Swift.String) throws(\(raw: error)) -> Any? {
        try \(raw: forward).value(forKey: key, on: self)
      }
      """,
      """
      \(raw: access)final func value(forKeyPath keyPath: Swift.String) throws(\(raw: error)) -> Any? {
        try \(raw: forward).value(forKeyPath: keyPath, on: self)
      }
      """,
      """
      \(raw: access)final func setValue(_ value: Any?, forKey key: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).setValue(value, forKey: key, on: self)
      }
      """,
      """
      \(raw: access)final func setValue(_ value: Any?, forKeyPath keyPath: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).setValue(value, forKeyPath: keyPath, on: self)
      }
      """,
      """
      \(raw: access)final func willChangeValue(forKey key: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).willChangeValue(forKey: key, on: self)
      }
      """,
      """
      \(raw: access)final func didChangeValue(forKey key: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).didChangeValue(forKey: key, on: self)
      }
      """,
      """
      @discardableResult
      \(raw: access)final func withChange<Result>(forKey key: Swift.String, _ body: () throws -> Result) throws -> Result {
        try \(raw: forward).withChange(forKey: key, on: self, body)
      }
      """,
      """
      \(raw: access)final func addObserver(
        _ observer: any \(raw: Names.module).KeyValueObserver,
        forKeyPath keyPath: Swift.String,
        options: \(raw: Names.module).KeyValueObservingOptions = [],
        context: Swift.UnsafeMutableRawPointer? = nil
      ) throws(\(raw: error)) {
        try \(raw: forward).addObserver(observer, forKeyPath: keyPath, options: options, context: context, on: self)
      }
      """,
    ]
  }

  /// Whether the class declares `Codable`, `Encodable` or `Decodable`.
  private static func declaresCodable(_ classDecl: ClassDeclSyntax) -> Bool {
    let codable: Set<String> = ["Codable", "Encodable", "Decodable", "Swift.Codable", "Swift.Encodable", "Swift.Decodable"]
    return classDecl.inheritanceClause?.inheritedTypes.contains { codable.contains($0.type.trimmedDescription) } ?? false
  }

  /// A class with its own `CodingKeys` and a synthesized conformance: each
  /// case named after an observable property must be named after its
  /// storage instead, which synthesis matches cases against.
  private static func diagnoseOwnCodingKeys(of classDecl: ClassDeclSyntax, in context: some MacroExpansionContext) {
    guard declaresCodable(classDecl), !classDecl.declaresFunction(named: "encode"),
      !classDecl.members(ofType: InitializerDeclSyntax.self).contains(where: { initializer in
        initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
      }),
      let codingKeys = classDecl.members(ofType: EnumDeclSyntax.self).first(where: { $0.name.text == "CodingKeys" })
    else { return }
    let observable = Set(classDecl.observableProperties)
    for element in codingKeys.memberBlock.members.flatMap({ $0.decl.as(EnumCaseDeclSyntax.self)?.elements ?? [] }) {
      let name = element.name.identifier?.name ?? element.name.text
      guard observable.contains(name) else { continue }
      var renamed = element.with(
        \.name,
        .identifier(Names.storage(of: name), leadingTrivia: element.name.leadingTrivia, trailingTrivia: element.name.trailingTrivia)
      )
      if renamed.rawValue == nil {
        renamed.name.trailingTrivia = []
        renamed.rawValue = InitializerClauseSyntax(
          equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space),
          value: StringLiteralExprSyntax(content: name)
        )
      }
      context.diagnose(
        Diagnostic(
          node: element.name,
          message: KeyValueObservingDiagnostic.codingKeyNamesProperty(property: name),
          fixIts: [
            FixIt(message: FixMessage.renameCodingKey, changes: [.replace(oldNode: Syntax(element), newNode: Syntax(renamed))])
          ]
        )
      )
    }
  }

  /// `CodingKeys` for a class that declares `Codable`, `Encodable` or
  /// `Decodable` and no coding keys of its own: every stored property under
  /// its own name, so that the synthesized conformance encodes `title`
  /// rather than its backing storage `_title`, and leaves the registrar out.
  private static func codingKeys(of classDecl: ClassDeclSyntax) -> DeclSyntax? {
    guard declaresCodable(classDecl), !classDecl.declaresMember(named: "CodingKeys") else { return nil }
    let properties = classDecl.codingProperties
    guard !properties.isEmpty else { return nil }
    let cases = properties.map { property in
      property.stored == property.key
        ? "case \(property.stored)"
        : "case \(property.stored) = \(StringLiteralExprSyntax(content: property.key))"
    }
    return """
      private enum CodingKeys: Swift.String, Swift.CodingKey {
        \(raw: cases.joined(separator: "\n"))
      }
      """
  }

  private static func diagnoseNonClass(
    _ declaration: some DeclGroupSyntax,
    attribute: AttributeSyntax,
    in context: some MacroExpansionContext
  ) {
    let message: KeyValueObservingDiagnostic
    var fixIts: [FixIt] = []
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      message = .requiresClassStruct
      fixIts = [replaceKeyword(structDecl.structKeyword)]
    } else if let actorDecl = declaration.as(ActorDeclSyntax.self) {
      message = .requiresClassActor
      fixIts = [replaceKeyword(actorDecl.actorKeyword)]
    } else if declaration.is(EnumDeclSyntax.self) {
      message = .requiresClassEnum
    } else if declaration.is(ProtocolDeclSyntax.self) {
      message = .requiresClassProtocol
    } else {
      message = .requiresClassOther
    }
    context.diagnose(Diagnostic(node: attribute, message: message, fixIts: fixIts))
  }

  private static func replaceKeyword(_ keyword: TokenSyntax) -> FixIt {
    FixIt(
      message: FixMessage.useFinalClass,
      changes: [
        .replace(
          oldNode: Syntax(keyword),
          newNode: Syntax(
            TokenSyntax(.identifier("final class"), leadingTrivia: keyword.leadingTrivia, trailingTrivia: keyword.trailingTrivia, presence: .present)
          )
        )
      ]
    )
  }
}

// MARK: - Member attributes: one property macro per observable property

extension KeyValueObservableMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let classDecl = declaration.as(ClassDeclSyntax.self), !context.isInsideFunction,
      let variable = member.as(VariableDeclSyntax.self)
    else { return [] }
    guard case .observable(let name) = variable.classification,
      let slot = classDecl.observableProperties.firstIndex(of: name)
    else { return [] }
    return ["@\(raw: Names.propertyAttribute)(slot: \(raw: slot))"]
  }
}

// MARK: - Extension: the conformance

extension KeyValueObservableMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // A subclass of an observable class inherits the conformance.
    guard declaration.is(ClassDeclSyntax.self), !protocols.isEmpty, !context.isInsideFunction else { return [] }
    let decl: DeclSyntax = "extension \(type.trimmed): nonisolated \(raw: Names.qualifiedProtocol) {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}
