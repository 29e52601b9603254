import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// Codable models: coding keys under the properties' own names, and a
/// clear error where a class's own coding keys name an observable property.
extension KeyValueObservableMacro {
  /// Whether the class writes its own `encode(to:)`.
  private static func declaresEncode(_ classDecl: ClassDeclSyntax) -> Bool {
    classDecl.members(ofType: FunctionDeclSyntax.self).contains { function in
      function.name.text == "encode" && function.signature.parameterClause.parameters.first?.firstName.text == "to"
    }
  }

  /// A class with its own `CodingKeys` and a synthesized conformance: each
  /// case named after an observable property must be named after its
  /// storage instead, which synthesis matches cases against.
  static func diagnoseOwnCodingKeys(of classDecl: ClassDeclSyntax, in context: some MacroExpansionContext) {
    guard classDecl.declaresCodable, !classDecl.declaresFunction(named: "encode"),
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
          message: MacroDiagnostic.codingKeyNamesProperty(property: name),
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
  static func codingKeys(of classDecl: ClassDeclSyntax) -> DeclSyntax? {
    guard classDecl.declaresCodable, !classDecl.declaresMember(named: "CodingKeys") else { return nil }
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

  /// `encode(to:)` for a class that declares `Codable` or `Encodable` and
  /// no `encode(to:)` of its own: it
  /// encodes what the synthesized one would, and reports each observable
  /// property it reads as the property's getter does, so that a tracked
  /// closure that encodes the object observes what it encoded.
  ///
  /// It reads the storage, as the synthesized conformance did, and takes
  /// the isolation that conformance would have: the class's own where the
  /// compiler infers isolated conformances, none elsewhere. A getter of a
  /// class isolated to a global actor cannot be called from the second.
  ///
  /// With the class's own `CodingKeys` enum, it encodes the properties
  /// the cases name, in the cases' order, when each names a stored
  /// property's storage; otherwise synthesis does, and says what is wrong.
  static func encodeMembers(of classDecl: ClassDeclSyntax) -> [DeclSyntax] {
    guard classDecl.declaresEncodable, !declaresEncode(classDecl),
      let properties = encodedProperties(of: classDecl), !properties.isEmpty
    else { return [] }
    let access = classDecl.declaresObservable ? Names.trackedAccess : Names.access
    let firstSlot = Names.firstSlot(ofClass: classDecl.name.trimmedDescription)
    let container = Names.encodingContainer
    var lines = ["var \(container) = encoder.container(keyedBy: CodingKeys.self)"]
    for property in properties {
      if let slot = property.slot {
        lines.append("\(Names.tracking).\(access)(self, slot: Self.\(firstSlot) + \(slot))")
      }
      lines.append("try \(Names.encoding).encode(self.\(property.stored), forKey: .\(property.codingKey), to: &\(container))")
    }
    let body = lines.map { "  " + $0 }.joined(separator: "\n")
    let modifiers = classDecl.witnessAccess(overridable: true)
    return [
      """
      #if hasFeature(InferIsolatedConformances)
      \(raw: modifiers)func encode(to encoder: any Swift.Encoder) throws {
      \(raw: body)
      }
      #else
      \(raw: modifiers)nonisolated func encode(to encoder: any Swift.Encoder) throws {
      \(raw: body)
      }
      #endif
      """
    ]
  }

  /// The properties `encode(to:)` encodes, each with its coding key's case
  /// as written: every coding property when the macro writes the keys, the
  /// cases' properties of the class's own `CodingKeys` enum, or `nil` when
  /// a case names no stored property or `CodingKeys` is not an enum.
  private static func encodedProperties(
    of classDecl: ClassDeclSyntax
  ) -> [(stored: String, codingKey: String, slot: Int?)]? {
    let properties = classDecl.codingProperties
    guard classDecl.declaresMember(named: "CodingKeys") else {
      return properties.map { ($0.stored, $0.stored, $0.slot) }
    }
    guard let codingKeys = classDecl.members(ofType: EnumDeclSyntax.self).first(where: { $0.name.text == "CodingKeys" })
    else { return nil }
    var encoded: [(stored: String, codingKey: String, slot: Int?)] = []
    for element in codingKeys.memberBlock.members.flatMap({ $0.decl.as(EnumCaseDeclSyntax.self)?.elements ?? [] }) {
      let written = element.name.text
      guard let property = properties.first(where: { Names.unquoted($0.stored) == Names.unquoted(written) }) else { return nil }
      encoded.append((property.stored, written, property.slot))
    }
    return encoded
  }
}
