public import SwiftSyntax
import SwiftBasicFormat
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@_KeyValueObservableProperty(slot:)`: turns one stored property into a
/// property backed by `_name` whose setter notifies and whose getter reports
/// reads. The property's own `willSet`/`didSet` move to the backing storage,
/// so they run around the assignment, before observers are notified.
public enum KeyValueObservablePropertyMacro {}

extension KeyValueObservablePropertyMacro: Macro {
  /// The accessors are written laid out; formatting them again would only
  /// spread each closure over three lines, and cost the plugin a pass over
  /// every expansion.
  public static var formatMode: FormatMode { .disabled }
}

extension KeyValueObservablePropertyMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      case .observable(let name) = variable.classification,
      let slot = slotExpression(of: node, in: context)
    else { return [] }
    let storage = Names.storage(of: name)
    let observers = variable.bindings.first?.accessorBlock == nil ? "" : ", hasPropertyObservers: true"
    let classDecl = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first
    // Observers read the value as key-value coding would: through the most
    // derived getter, which a subclass of a non-final class may override.
    let isFinal = classDecl?.isFinal ?? true
    // A class that declares `Observable` calls the tracked forms, which
    // also report to Swift Observation: names of their own, not overloads,
    // so that each accessor gives the type checker one function to
    // consider. A class that routes its mutations through its own
    // `withMutation(keyPath:_:)` sets through the overload that calls it.
    let tracked = classDecl?.declaresObservable ?? false
    let access = tracked ? Names.trackedAccess : Names.access
    let reportsMutations = tracked && !routesMutations(node)
    let set = reportsMutations ? Names.notifyingTrackedSet : Names.notifyingSet
    // The tracked form reports to the object's registrar itself.
    let reporting = reportsMutations ? ", reportingTo: \(Names.observationRegistrar)" : ""
    let read = isFinal ? storage : variable.bindings.first?.pattern.trimmedDescription ?? storage
    let get = "get: { $0.\(read) }"
    // Reading the storage, observers are handed the value assigned; through
    // a getter, the value is read back after the assignment.
    let overridable = isFinal ? "" : ", hasOverridableGetter: true"
    func notify(_ value: String) -> String {
      "\(Names.storageLocal).\(set)(self, slot: \(slot)\(reporting), to: \(value)\(observers)\(overridable), \(get), set: { $0.\(storage) = $1 })"
    }
    // A `_modify` that works on a copy assigns it back through the setter,
    // which notifies; in a class that may have subclasses, through the
    // notifying call itself, since an override's setter would run its
    // observers a second time. Deferred, so that a write made through
    // `inout` before a throw stays, as it does in a stored property.
    let assignCopy = isFinal ? "self.\(name) = \(Names.modifyLocal)" : notify(Names.modifyLocal)
    // Laid out here as it reads best, and not formatted again (see
    // `formatMode`): each closure stays on its call's line.
    return [
      """
        @storageRestrictions(initializes: \(raw: storage))
        init(initialValue) {
          \(raw: storage) = initialValue
        }
      """,
      """

        get {
          \(raw: Names.tracking).\(raw: access)(self, slot: \(raw: slot))
          return \(raw: storage)
        }
      """,
      """

        set {
          guard let \(raw: Names.storageLocal) = self.\(raw: Names.observedStorage) else {
            \(raw: storage) = newValue
            return
          }
          \(raw: notify("newValue"))
        }
      """,
      """

        _modify {
          guard let \(raw: Names.storageLocal) = self.\(raw: Names.observedStorage), !\(raw: Names.storageLocal)._modifiesInPlace(slot: \(raw: slot)) else {
            yield &\(raw: storage)
            return
          }
          guard \(raw: Names.storageLocal)._willModifyInPlace(self, slot: \(raw: slot)) else {
            var \(raw: Names.modifyLocal) = \(raw: storage)
            defer { \(raw: assignCopy) }
            yield &\(raw: Names.modifyLocal)
            return
          }
          defer { \(raw: Names.storageLocal)._didModifyInPlace(self, slot: \(raw: slot)) }
          yield &\(raw: storage)
        }
      """,
    ]
  }

  /// Whether the attribute says `routesMutations: true`.
  private static func routesMutations(_ node: AttributeSyntax) -> Bool {
    guard case .argumentList(let arguments) = node.arguments else { return false }
    return arguments.contains { $0.label?.text == "routesMutations" && $0.expression.trimmedDescription == "true" }
  }

  /// `Self._$kvoFirstSlot_Person + 2`: the enclosing class's first slot plus
  /// the property's position, which `@KeyValueObservable` passed as `slot:`.
  private static func slotExpression(
    of node: AttributeSyntax,
    in context: some MacroExpansionContext
  ) -> String? {
    guard case .argumentList(let arguments) = node.arguments,
      let position = arguments.first?.expression.as(IntegerLiteralExprSyntax.self)?.literal.text,
      let classDecl = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first
    else { return nil }
    return "Self.\(Names.firstSlot(ofClass: classDecl.name.trimmedDescription)) + \(position)"
  }
}

extension KeyValueObservablePropertyMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      case .observable(let name) = variable.classification,
      var binding = variable.bindings.first
    else { return [] }
    binding.pattern = PatternSyntax(IdentifierPatternSyntax(identifier: .identifier(Names.storage(of: name))))
    // `willSet`/`didSet` stay with the storage they observe.
    if binding.accessorBlock == nil {
      binding.trailingTrivia = []
    }
    // Writes to the storage go through the property's accessors, whose
    // `_modify` keeps the compiler from proving accesses exclusive; a dynamic
    // check on every write would cost more than the rest of an unobserved
    // write. The property itself keeps Swift's exclusivity rules.
    // A `weak` or `unowned` property keeps its ownership in its storage.
    // `final`, so that a key path to it is a stored component, which a
    // collection proxy writes in place (one to an overridable property goes
    // through its accessors, and copies).
    var modifiers: DeclModifierListSyntax = [
      DeclModifierSyntax(name: .keyword(.private)), DeclModifierSyntax(name: .keyword(.final)),
    ]
    // Storage the key table reaches directly: see
    // `ClassDeclSyntax.directlyAccessedProperties`.
    let classDecl = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first
    let direct = classDecl.map(variable.hasDirectlyAccessedStorage(in:)) ?? false
    if let classDecl, variable.initialValueIsLeftToInitAccessor(in: classDecl) {
      binding.initializer = nil
      binding.typeAnnotation?.trailingTrivia = []
    }
    if direct {
      modifiers.append(
        DeclModifierSyntax(
          leadingTrivia: .space,
          name: .keyword(.nonisolated),
          detail: DeclModifierDetailSyntax(detail: .identifier("unsafe"))
        )
      )
    }
    if let ownership = variable.referenceOwnership {
      modifiers.append(ownership.trimmed.with(\.leadingTrivia, .space))
    }
    var attributes: AttributeListSyntax = [.attribute("@exclusivity(unchecked)").with(\.trailingTrivia, .space)]
    if !direct, let actor = variable.globalActorAttribute {
      attributes.append(.attribute(actor.trimmed.with(\.trailingTrivia, .space)))
    }
    let storage = VariableDeclSyntax(
      attributes: attributes,
      modifiers: modifiers,
      bindingSpecifier: .keyword(.var),
      bindings: [binding.with(\.leadingTrivia, .space)]
    )
    // Built from nodes, so laid out here (the macro's expansions are not
    // formatted afterwards).
    return [DeclSyntax(storage).formatted().cast(DeclSyntax.self)]
  }
}
