import SwiftSyntax
import SwiftSyntaxMacros

extension MacroExpansionContext {
  /// Whether the declaration being expanded sits inside a function,
  /// closure, initializer or accessor: a local type, which can have no
  /// extensions and whose members the key tables cannot name.
  var isInsideFunction: Bool {
    lexicalContext.contains { context in
      context.is(FunctionDeclSyntax.self) || context.is(ClosureExprSyntax.self)
        || context.is(InitializerDeclSyntax.self) || context.is(DeinitializerDeclSyntax.self)
        || context.is(AccessorDeclSyntax.self) || context.is(SubscriptDeclSyntax.self)
    }
  }

  /// Whether the declaration being expanded sits inside a generic type,
  /// or inside an extension, whose type may be generic: where a static
  /// stored property does not compile.
  var isInsideGenericTypeOrExtension: Bool {
    lexicalContext.contains { context in
      if context.is(ExtensionDeclSyntax.self) { return true }
      let generics =
        context.as(ClassDeclSyntax.self)?.genericParameterClause
        ?? context.as(StructDeclSyntax.self)?.genericParameterClause
        ?? context.as(EnumDeclSyntax.self)?.genericParameterClause
        ?? context.as(ActorDeclSyntax.self)?.genericParameterClause
      return generics != nil
    }
  }
}
