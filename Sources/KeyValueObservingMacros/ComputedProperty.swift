import SwiftSyntax

/// A computed instance property whose getter the key table hands out
/// (`_$kvoGetter(for:)`), so that observing it reads it with a direct call
/// instead of a key path projection, which costs several times the read.
///
/// The table is `nonisolated`, and the getter may be isolated to the main
/// actor without the macro seeing it (a module whose default isolation is
/// the main actor): the table hands it out as a `@MainActor` function, which
/// may call a getter of either kind, and the runtime calls it as a plain one
/// (see `DerivedObservation`).
struct ComputedProperty {
  /// The name as code writes it (with backticks where it needs them).
  let name: String
  /// The property's type as written.
  let type: String
}

extension ClassDeclSyntax {
  /// The computed properties the key table hands out a getter for:
  /// instance properties declared here, with a getter that neither throws
  /// nor suspends, a written type that is not opaque or implicitly
  /// unwrapped and does not name `Self`, no attributes, neither `private`
  /// nor `override`. None in a generic class, whose key paths the table's
  /// literals cannot name, or in a class isolated to a global actor other
  /// than the main actor, whose getters a `@MainActor` function cannot call.
  var computedProperties: [ComputedProperty] {
    guard globalActor == nil || globalActor == "MainActor", genericParameterClause == nil else { return [] }
    return memberBlock.members.compactMap { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.bindingSpecifier.tokenKind == .keyword(.var), !variable.isStatic, !variable.isPrivate,
        !variable.hasModifier(.override), variable.attributes.isEmpty, variable.bindings.count == 1,
        let binding = variable.bindings.first, !binding.isStored, binding.hasPlainGetter,
        let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
        let type = binding.typeAnnotation?.type, type.isNameableInAClosure
      else { return nil }
      return ComputedProperty(name: identifier.identifier.trimmedDescription, type: type.trimmedDescription)
    }
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

extension TypeSyntax {
  /// Whether a closure's result can be written as this type: not opaque,
  /// not implicitly unwrapped, and not naming `Self`, which in the table's
  /// `class func` is another type than in the property.
  fileprivate var isNameableInAClosure: Bool {
    guard !self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) else { return false }
    return !tokens(viewMode: .sourceAccurate).contains {
      $0.tokenKind == .keyword(.Self) || $0.tokenKind == .keyword(.some)
    }
  }
}
