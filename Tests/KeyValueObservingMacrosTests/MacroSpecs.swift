import KeyValueObservingMacros
import SwiftSyntaxMacroExpansion

/// The macros as the compiler sees them on a class that is not yet
/// observable: the compiler lists `KeyValueObservable` among the
/// conformances still to add.
let rootClassMacros: [String: MacroSpec] = [
  "KeyValueObservable": MacroSpec(type: KeyValueObservableMacro.self, conformances: ["KeyValueObservable"]),
  "_KeyValueObservableProperty": MacroSpec(type: KeyValueObservablePropertyMacro.self),
  "KeyValueIgnored": MacroSpec(type: KeyValueIgnoredMacro.self),
]

/// The macros as the compiler sees them on a subclass of an observable
/// class: the conformance is inherited, so none is left to add.
let subclassMacros: [String: MacroSpec] = [
  "KeyValueObservable": MacroSpec(type: KeyValueObservableMacro.self, conformances: []),
  "_KeyValueObservableProperty": MacroSpec(type: KeyValueObservablePropertyMacro.self),
  "KeyValueIgnored": MacroSpec(type: KeyValueIgnoredMacro.self),
]
