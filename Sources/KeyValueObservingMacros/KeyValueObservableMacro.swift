import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@KeyValueObservable`: the registrar, the key table, the conformance, and
/// `@_KeyValueObservableProperty` on every observable stored property; for a
/// class that declares `Observable`, what Swift Observation's tracking needs
/// (``ObservationMembers``).
public enum KeyValueObservableMacro {}

extension KeyValueObservableMacro: Macro {
  /// Every member is written laid out, one `case` a line; formatting them
  /// again would spread each over two lines and each closure over three,
  /// and cost the plugin a pass over every expansion.
  public static var formatMode: FormatMode { .disabled }
}

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
      context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.localClass))
      return []
    }
    if let observable = classDecl.observableMacroAttribute {
      let withoutObservable = classDecl.attributes.filter { element in
        guard case .attribute(let attribute) = element else { return true }
        return attribute.id != observable.id
      }
      context.diagnose(
        Diagnostic(
          node: observable,
          message: MacroDiagnostic.observableMacro,
          fixIts: [FixIt(message: FixMessage.removeObservableMacro, changes: [.replace(oldNode: Syntax(classDecl.attributes), newNode: Syntax(withoutObservable))])]
        )
      )
      return []
    }
    diagnoseMembers(of: classDecl, in: context)

    // The compiler lists the protocols the class does not conform to yet: an
    // empty list means a superclass is already observable, so this class
    // adds its keys after the superclass's and reuses its registrar (and
    // is tracked by Swift Observation when the superclass is).
    let isRoot = !protocols.isEmpty
    let tracksObservation = isRoot && classDecl.declaresObservable
    if !isRoot, let observable = classDecl.declaredObservable,
      let superclass = classDecl.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
    {
      context.diagnose(
        Diagnostic(node: observable, message: MacroDiagnostic.observableSubclass(superclass: superclass))
      )
    }
    let canHoldStaticStorage = classDecl.genericParameterClause == nil && !context.isInsideGenericTypeOrExtension
    var members = KeyTable(
      classDecl, isRoot: isRoot, tracksObservation: tracksObservation, canHoldStaticStorage: canHoldStaticStorage
    ).members
    if tracksObservation {
      let observation = ObservationMembers(classDecl: classDecl, canHoldStaticStorage: canHoldStaticStorage)
      members += observation.members
      for hook in observation.isolatedHooks {
        context.diagnose(
          Diagnostic(
            node: hook.name,
            message: MacroDiagnostic.isolatedObservationHook(
              name: hook.name.text == Names.mutationHook ? "withMutation(keyPath:_:)" : "access(keyPath:)"
            ),
            fixIts: [FixIt(message: FixMessage.addNonisolated, changes: [.replace(oldNode: Syntax(hook), newNode: Syntax(hook.markedNonisolated))])]
          )
        )
      }
    }
    if !isRoot && classDecl.declaresObservable {
      // The refused subclass's setters still name a registrar (its
      // superclass has none, or declaring `Observable` again would be an
      // error of its own): one never reported to, so that the error above
      // is the only one.
      members.append(ObservationMembers(classDecl: classDecl).registrarMember)
    }
    if isRoot && classDecl.isolatedToGlobalActor {
      members += isolatedStringKeyMembers(access: classDecl.witnessAccess(overridable: false))
    }
    if let codingKeys = codingKeys(of: classDecl) {
      members.append(codingKeys)
    }
    members += encodeMembers(of: classDecl)
    diagnoseOwnCodingKeys(of: classDecl, in: context)
    return members
  }

  /// Tells the user about the members the macro leaves alone or cannot
  /// take: a storage name the class declares itself, properties it cannot
  /// rewrite (with a fix-it to mark them ignored where they stay plain),
  /// properties inside `#if`, and customisation methods in Objective-C's
  /// shape, which nothing calls (with a fix-it to the requirement's
  /// signature where one can be written).
  private static func diagnoseMembers(of classDecl: ClassDeclSyntax, in context: some MacroExpansionContext) {
    for (property, declaration) in classDecl.backingStorageCollisions {
      context.diagnose(
        Diagnostic(node: declaration, message: MacroDiagnostic.backingStorageCollision(property: property))
      )
    }
    for (variable, diagnostic, position) in classDecl.unsupportedMembers {
      var fixIts: [FixIt] = []
      if case .observationIgnored = diagnostic, let attribute = position.as(AttributeSyntax.self) {
        let name = IdentifierTypeSyntax(name: .identifier(Names.ignoredAttribute))
          .with(\.trailingTrivia, attribute.attributeName.trailingTrivia)
        let ignored = attribute.with(\.attributeName, TypeSyntax(name))
        fixIts.append(FixIt(message: FixMessage.useKeyValueIgnored, changes: [.replace(oldNode: Syntax(attribute), newNode: Syntax(ignored))]))
      } else if diagnostic.severity == .warning {
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
      context.diagnose(Diagnostic(node: Syntax(variable), message: MacroDiagnostic.insideConditionalCompilation))
    }

    for nearMiss in classDecl.customizationNearMisses {
      let message = MacroDiagnostic.customizationNearMiss(
        written: nearMiss.writtenName,
        requirement: nearMiss.requirement,
        shape: nearMiss.shape,
        className: classDecl.name.trimmedDescription,
        property: classDecl.observableProperties.first ?? "name"
      )
      context.diagnose(Diagnostic(node: nearMiss.function.name, message: message, fixIts: nearMiss.fixIt.map { [$0] } ?? []))
    }
  }

  private static func diagnoseNonClass(
    _ declaration: some DeclGroupSyntax,
    attribute: AttributeSyntax,
    in context: some MacroExpansionContext
  ) {
    let message: MacroDiagnostic
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
    // A class the member macro refused (also marked `@Observable`) gets
    // nothing more: its one error stands alone.
    guard let classDecl = declaration.as(ClassDeclSyntax.self), !context.isInsideFunction,
      classDecl.observableMacroAttribute == nil, let variable = member.as(VariableDeclSyntax.self)
    else { return [] }
    guard case .observable(let name) = variable.classification,
      let slot = classDecl.observableProperties.firstIndex(of: name)
    else { return [] }
    // The accessor macro sees the class without its members: it is told
    // when the class routes mutations through its own hook.
    let routesMutations =
      classDecl.declaresObservable && ObservationMembers(classDecl: classDecl).declaresHook(Names.mutationHook)
    return ["@\(raw: Names.propertyAttribute)(slot: \(raw: slot)\(raw: routesMutations ? ", routesMutations: true" : ""))"]
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
    // A subclass of an observable class inherits the conformance; a class
    // the member macro refused gets none, which its members could not meet.
    guard let classDecl = declaration.as(ClassDeclSyntax.self), classDecl.observableMacroAttribute == nil,
      !protocols.isEmpty, !context.isInsideFunction
    else { return [] }
    let decl: DeclSyntax = "extension \(type.trimmed): nonisolated \(raw: Names.qualifiedProtocol) {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

extension ClassDeclSyntax {
  /// The `@Observable` attribute on the class, if it has one.
  var observableMacroAttribute: AttributeSyntax? {
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = attribute.attributeName.trimmedDescription
      if name == Names.observableProtocol || name == "\(Names.observationModule).\(Names.observableProtocol)" {
        return attribute
      }
    }
    return nil
  }

  /// Whether the class declares `Observable` (or `Observation.Observable`)
  /// in its inheritance clause, so that Swift Observation tracks it.
  var declaresObservable: Bool { declaredObservable != nil }

  /// Where the class declares `Observable` in its inheritance clause.
  var declaredObservable: InheritedTypeSyntax? {
    inheritanceClause?.inheritedTypes.first { inherited in
      let type = inherited.type
      if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == Names.observableProtocol }
      if let member = type.as(MemberTypeSyntax.self) {
        return member.name.text == Names.observableProtocol && member.baseType.trimmedDescription == Names.observationModule
      }
      return false
    }
  }
}
