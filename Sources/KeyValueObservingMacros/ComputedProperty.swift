import SwiftSyntax

extension ClassDeclSyntax {
  /// The computed properties whose getter the key table hands out, so that
  /// observing one reads it with a direct call instead of a key path
  /// projection, which costs several times the read: instance properties
  /// declared here, with a getter that neither throws nor suspends, no
  /// attributes, neither `private` nor `override`. None in a class isolated
  /// to a global actor other than the main actor, whose getters the
  /// table's `@MainActor` functions cannot call.
  ///
  /// The table is `nonisolated`, and a getter may be isolated to the main
  /// actor without the macro seeing it (a module whose default isolation is
  /// the main actor): the table hands it out as a `@MainActor` function,
  /// which may call a getter of either kind, and the runtime calls it as a
  /// plain one (see `DerivedObservation`).
  var computedProperties: Set<String> {
    guard globalActor == nil || globalActor == "MainActor" else { return [] }
    return Set(
      memberBlock.members.compactMap { member in
        guard let variable = member.decl.as(VariableDeclSyntax.self),
          variable.bindingSpecifier.tokenKind == .keyword(.var), !variable.isStatic, !variable.isPrivate,
          !variable.hasModifier(.override), variable.attributes.isEmpty, variable.bindings.count == 1,
          let binding = variable.bindings.first, !binding.isStored, binding.hasPlainGetter,
          let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else { return nil }
        return identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
      }
    )
  }
}

extension PatternBindingSyntax {
  /// Whether the binding has a getter that neither throws nor suspends.
  var hasPlainGetter: Bool {
    switch accessorBlock?.accessors {
    case .getter: return true
    case .accessors(let accessors):
      return accessors.contains { $0.accessorSpecifier.tokenKind == .keyword(.get) && $0.effectSpecifiers == nil }
    case nil: return false
    }
  }
}
