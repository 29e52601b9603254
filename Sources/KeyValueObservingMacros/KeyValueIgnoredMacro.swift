public import SwiftSyntax
public import SwiftSyntaxMacros

/// `@KeyValueIgnored`: a marker that `@KeyValueObservable` reads; it expands
/// to nothing.
public enum KeyValueIgnoredMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    []
  }
}
