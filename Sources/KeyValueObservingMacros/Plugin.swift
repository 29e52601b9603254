import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct KeyValueObservingPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    KeyValueObservableMacro.self,
    KeyValueObservablePropertyMacro.self,
    KeyValueIgnoredMacro.self,
  ]
}
