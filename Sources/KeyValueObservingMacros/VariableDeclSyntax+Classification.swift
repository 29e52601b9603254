import SwiftDiagnostics
import SwiftSyntax

/// What `@KeyValueObservable` decides about one member of a class.
enum MemberClassification {
  /// A stored `var` that becomes observable.
  case observable(name: String)
  /// Left alone without comment: `let`, computed, `static`, `lazy`, ignored.
  case untouched
  /// Left alone, with something to tell the user.
  case unsupported(MacroDiagnostic, Syntax)
}

/// Attributes that do not turn a property into a wrapped one.
private let plainAttributes: Set<String> = [
  "available", "objc", "nonobjc", "MainActor", "preconcurrency", "usableFromInline",
  "inlinable", "_spi", "exclusivity", "IBOutlet", "IBInspectable", "GKInspectable",
  "nonisolated", "_hasStorage", Names.propertyAttribute,
]

extension VariableDeclSyntax {
  /// Whether the declaration carries `@name` (possibly module-qualified).
  func hasAttribute(named name: String) -> Bool {
    attributes.contains { element in
      guard case .attribute(let attribute) = element else { return false }
      return attribute.attributeName.trimmedDescription.split(separator: ".").last.map(String.init) == name
    }
  }

  var isStatic: Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  func hasModifier(_ keyword: Keyword) -> Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(keyword) }
  }

  /// `private` or `fileprivate` (not just for the setter): key-value coding
  /// cannot reach the property by string.
  var isPrivate: Bool {
    modifiers.contains { modifier in
      (modifier.name.tokenKind == .keyword(.private) || modifier.name.tokenKind == .keyword(.fileprivate))
        && modifier.detail == nil
    }
  }

  /// `private(set)` or `fileprivate(set)`: read-only by string.
  var hasPrivateSetter: Bool {
    modifiers.contains { modifier in
      (modifier.name.tokenKind == .keyword(.private) || modifier.name.tokenKind == .keyword(.fileprivate))
        && modifier.detail?.detail.text == "set"
    }
  }

  /// Attributes that name something other than a known declaration
  /// attribute: property wrappers (or macros, which are just as impossible
  /// to combine with the rewrite).
  var customAttributes: [AttributeSyntax] {
    attributes.compactMap { element in
      guard case .attribute(let attribute) = element else { return nil }
      let name = attribute.attributeName.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
      // A global actor (`@MainActor`, or another named `…Actor`) isolates
      // the property; it wraps nothing.
      return plainAttributes.contains(name) || name.hasSuffix("Actor") || name == Names.ignoredAttribute ? nil : attribute
    }
  }

  /// Decides whether `@KeyValueObservable` rewrites this property.
  var classification: MemberClassification {
    guard bindingSpecifier.tokenKind == .keyword(.var), !isStatic, !hasModifier(.lazy),
      !hasAttribute(named: Names.ignoredAttribute)
    else { return .untouched }
    if bindings.count > 1 {
      return bindings.allSatisfy(\.isStored) && !hasModifier(.override)
        ? .unsupported(.multipleBindings, Syntax(self)) : .untouched
    }
    guard let binding = bindings.first, binding.isStored else { return .untouched }
    guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
      return .unsupported(.unsupportedPattern, Syntax(binding.pattern))
    }
    // The name without backticks: `default` is stored in `_default` and
    // observed under the key "default".
    let name = identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
    if hasModifier(.override) {
      // Property observers on an inherited property: no new storage. The
      // superclass's setter, which the override calls, notifies.
      return .untouched
    }
    if let wrapper = customAttributes.first {
      if wrapper.attributeName.trimmedDescription.split(separator: ".").last == "ObservationIgnored" {
        return .unsupported(.observationIgnored, Syntax(wrapper))
      }
      return .unsupported(.propertyWrapper, Syntax(wrapper))
    }
    return .observable(name: name)
  }

  /// Whether the storage of this observable property, in `classDecl`, is
  /// one the key table reaches directly (see
  /// `ClassDeclSyntax.directlyAccessedProperties`). Decided from the
  /// property and the class's header only: a macro's view of its lexical
  /// context has no members.
  ///
  /// Storage reached directly is `nonisolated(unsafe)`, so an initial
  /// value it holds is evaluated off any actor. One that may call isolated
  /// code is left to the property's `init` accessor where it can be
  /// (``initialValueIsLeftToInitAccessor(in:)``). Where it cannot, in a
  /// class isolated to a global actor, the storage stays isolated, and the
  /// table reaches it through its key path.
  func hasDirectlyAccessedStorage(in classDecl: ClassDeclSyntax) -> Bool {
    guard bindings.first?.accessorBlock == nil, !classDecl.declaresCheckedSendable else { return false }
    guard let initialValue = bindings.first?.initializer?.value, !initialValue.isLiteral,
      !canLeaveInitialValueToInitAccessor(in: classDecl)
    else { return true }
    return !(classDecl.isolatedToGlobalActor || globalActorAttribute != nil)
  }

  /// Whether the storage of this property, reached directly, is declared
  /// without the initial value, which the property's `init` accessor
  /// takes instead: evaluated there, with the property's isolation, it may
  /// call a main-actor initializer (`var selection: Selection =
  /// Selection()`).
  func initialValueIsLeftToInitAccessor(in classDecl: ClassDeclSyntax) -> Bool {
    guard let initialValue = bindings.first?.initializer?.value, !initialValue.isLiteral,
      canLeaveInitialValueToInitAccessor(in: classDecl)
    else { return false }
    return hasDirectlyAccessedStorage(in: classDecl)
  }

  /// Storage without an initial value needs the property's type written,
  /// and a class whose `init(from:)` is synthesized needs the value on the
  /// storage: synthesis initializes there a property its coding keys
  /// leave out.
  private func canLeaveInitialValueToInitAccessor(in classDecl: ClassDeclSyntax) -> Bool {
    bindings.first?.typeAnnotation != nil && !classDecl.declaresDecodable
  }

  /// The property's `@MainActor`, or another attribute named `…Actor`:
  /// storage the table does not reach directly keeps it, so that its
  /// initial value is evaluated with the property's isolation.
  var globalActorAttribute: AttributeSyntax? {
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = attribute.attributeName.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
      if name.hasSuffix("Actor") { return attribute }
    }
    return nil
  }

  /// `weak` or `unowned` (with or without `(safe)`/`(unsafe)`), which the
  /// backing storage must keep.
  var referenceOwnership: DeclModifierSyntax? {
    modifiers.first { $0.name.tokenKind == .keyword(.weak) || $0.name.tokenKind == .keyword(.unowned) }
  }
}

extension PatternBindingSyntax {
  /// `true` unless the binding has a getter (explicit or implicit): stored
  /// properties may have only `willSet`/`didSet`.
  var isStored: Bool {
    guard let accessorBlock else { return true }
    switch accessorBlock.accessors {
    case .getter:
      return false
    case .accessors(let accessors):
      return accessors.allSatisfy {
        $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
      }
    }
  }
}

extension ExprSyntax {
  /// Whether the expression is made of literals alone (`0`, `-1.5`,
  /// `"a"`, `nil`, `true`, and arrays, dictionaries and tuples of them),
  /// so that evaluating it calls no code that an actor may isolate.
  var isLiteral: Bool {
    if let string = self.as(StringLiteralExprSyntax.self) {
      return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
    }
    if let array = self.as(ArrayExprSyntax.self) {
      return array.elements.allSatisfy { $0.expression.isLiteral }
    }
    if let dictionary = self.as(DictionaryExprSyntax.self) {
      guard case .elements(let elements) = dictionary.content else { return true }
      return elements.allSatisfy { $0.key.isLiteral && $0.value.isLiteral }
    }
    if let tuple = self.as(TupleExprSyntax.self) {
      return tuple.elements.allSatisfy { $0.expression.isLiteral }
    }
    if let prefix = self.as(PrefixOperatorExprSyntax.self) {
      return prefix.operator.text == "-" && prefix.expression.isLiteral
    }
    return self.is(IntegerLiteralExprSyntax.self) || self.is(FloatLiteralExprSyntax.self)
      || self.is(BooleanLiteralExprSyntax.self) || self.is(NilLiteralExprSyntax.self)
  }
}
