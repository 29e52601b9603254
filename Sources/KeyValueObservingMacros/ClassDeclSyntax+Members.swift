import SwiftDiagnostics
import SwiftSyntax

extension ClassDeclSyntax {
  /// The instance properties that key-value coding reads by name but that
  /// are not observable stored ones: constants, computed and lazy
  /// properties, ignored and other plain stored ones. Private ones are left
  /// out, and so are declarations with several bindings or a pattern, and
  /// computed properties whose getter throws or suspends (Swift forms no
  /// key path to them, so nothing can observe them by key path).
  var otherReadableProperties: [String] {
    memberBlock.members.compactMap { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic, !variable.isPrivate,
        variable.bindings.count == 1, let binding = variable.bindings.first,
        let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
        // A getter that throws or suspends cannot be named by a key path.
        binding.isStored || binding.hasPlainGetter
      else { return nil }
      if case .observable = variable.classification { return nil }
      return identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
    }
  }

  /// The instance constants (`let`) key-value coding reads by name: the
  /// ones observable by string, whose registrations never fire.
  var constantProperties: Set<String> {
    Set(
      memberBlock.members.compactMap { member in
        guard let variable = member.decl.as(VariableDeclSyntax.self),
          variable.bindingSpecifier.tokenKind == .keyword(.let), !variable.isStatic,
          variable.bindings.count == 1,
          let identifier = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
        else { return nil }
        return identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
      }
    )
  }

  /// The stored `var`s key-value coding reads that announce nothing — ignored
  /// and lazy ones — declared here (an `override` with observers is the
  /// superclass's property, which decides).
  var unannouncedStoredProperties: Set<String> {
    Set(
      memberBlock.members.compactMap { member in
        guard let variable = member.decl.as(VariableDeclSyntax.self),
          variable.bindingSpecifier.tokenKind == .keyword(.var), !variable.isStatic, !variable.isPrivate,
          !variable.hasModifier(.override), variable.bindings.count == 1, let binding = variable.bindings.first,
          binding.isStored, let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else { return nil }
        if case .observable = variable.classification { return nil }
        return identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
      }
    )
  }

  /// The observable stored properties, in declaration order: their position
  /// is their slot, counted from the class's first slot. A property whose
  /// backing name the class declares itself is left out (and diagnosed).
  var observableProperties: [String] {
    let colliding = Set(backingStorageCollisions.map(\.property))
    return memberBlock.members.compactMap { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        case .observable(let name) = variable.classification, !colliding.contains(name)
      else { return nil }
      return name
    }
  }

  /// The instance properties the class overrides (`override var`), which
  /// a superclass declares.
  var overriddenProperties: [String] {
    memberBlock.members.flatMap { member -> [String] in
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic,
        variable.hasModifier(.override)
      else { return [] }
      return variable.bindings.compactMap { binding in
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
        return identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
      }
    }
  }

  /// Whether the class conforms to `Sendable` as the compiler checks it
  /// (not `@unchecked`): its storage must stay visible to that check.
  var declaresCheckedSendable: Bool {
    inheritanceClause?.inheritedTypes.contains { inherited in
      inherited.type.trimmedDescription.split(separator: ".").last == "Sendable"
        && !inherited.type.trimmedDescription.contains("@unchecked")
    } ?? false
  }

  /// The observable properties whose storage the generated key table reads
  /// and writes directly, from its `nonisolated` members, as typed code:
  /// those without `willSet`/`didSet`, whose storage is therefore declared
  /// `nonisolated(unsafe)` (it is private; the property keeps its
  /// isolation, and every access to the storage comes from the property's
  /// accessors or from the library under the property's rules). A property
  /// with observers keeps isolated storage, since its observers run there;
  /// so does one whose initial value may call isolated code, where it
  /// cannot be left to the `init` accessor
  /// (`VariableDeclSyntax.hasDirectlyAccessedStorage(in:)`); a checked
  /// `Sendable` class keeps all its storage checked.
  var directlyAccessedProperties: Set<String> {
    Set(
      memberBlock.members.compactMap { member in
        guard let variable = member.decl.as(VariableDeclSyntax.self),
          case .observable(let name) = variable.classification,
          variable.hasDirectlyAccessedStorage(in: self)
        else { return nil }
        return name
      }
    )
  }

  /// The observable properties that are `private` or `fileprivate`: they
  /// have a slot, but no string key.
  var privateObservableProperties: Set<String> {
    Set(
      memberBlock.members.compactMap { member in
        guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isPrivate,
          case .observable(let name) = variable.classification
        else { return nil }
        return name
      }
    )
  }

  /// The names of instance properties with a `private(set)` or
  /// `fileprivate(set)` setter: readable by string, never set by string.
  var readOnlyByStringProperties: [String] {
    memberBlock.members.flatMap { member -> [String] in
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic, variable.hasPrivateSetter
      else { return [] }
      return variable.bindings.compactMap { binding in
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
        return identifier.identifier.identifier?.name ?? identifier.identifier.trimmedDescription
      }
    }
  }

  /// Observable properties whose backing storage (`_name`) the class
  /// declares itself, with that declaration.
  var backingStorageCollisions: [(property: String, declaration: Syntax)] {
    var declared: [String: Syntax] = [:]
    for member in memberBlock.members {
      if let variable = member.decl.as(VariableDeclSyntax.self) {
        for binding in variable.bindings {
          if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) {
            declared[identifier.identifier.trimmedDescription] = Syntax(binding.pattern)
          }
        }
      } else if let function = member.decl.as(FunctionDeclSyntax.self) {
        declared[function.name.trimmedDescription] = Syntax(function.name)
      }
    }
    return memberBlock.members.compactMap { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        case .observable(let name) = variable.classification,
        let declaration = declared[Names.storage(of: name)]
      else { return nil }
      return (name, declaration)
    }
  }

  /// Stored properties in declaration order, as Codable synthesis sees them
  /// after the rewrite: the stored name, the name to encode under, and the
  /// slot of an observable property (its position among the class's own).
  /// Constants with an initial value are left out (synthesis would encode
  /// them but never decode them), as are `lazy`, `static` and computed
  /// properties.
  var codingProperties: [(stored: String, key: String, slot: Int?)] {
    let observable = observableProperties
    return memberBlock.members.flatMap { member -> [(stored: String, key: String, slot: Int?)] in
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic,
        !variable.hasModifier(.lazy), !variable.hasModifier(.override)
      else { return [] }
      return variable.bindings.compactMap { binding in
        guard binding.isStored, let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { return nil }
        if variable.bindingSpecifier.tokenKind == .keyword(.let) && binding.initializer != nil { return nil }
        let written = identifier.identifier.trimmedDescription
        let name = identifier.identifier.identifier?.name ?? written
        if case .observable = variable.classification, let slot = observable.firstIndex(of: name) {
          return (Names.storage(of: name), name, slot)
        }
        return (written, name, nil)
      }
    }
  }

  /// The members the macro leaves alone but should tell the user about.
  var unsupportedMembers: [(VariableDeclSyntax, MacroDiagnostic, Syntax)] {
    memberBlock.members.compactMap { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        case .unsupported(let diagnostic, let node) = variable.classification
      else { return nil }
      return (variable, diagnostic, node)
    }
  }

  /// Stored `var`s declared inside `#if` blocks: the key table cannot list
  /// them, since only one branch exists in a given build.
  var conditionallyCompiledProperties: [VariableDeclSyntax] {
    func variables(in members: MemberBlockItemListSyntax) -> [VariableDeclSyntax] {
      members.flatMap { member -> [VariableDeclSyntax] in
        if let variable = member.decl.as(VariableDeclSyntax.self) {
          if case .observable = variable.classification { return [variable] }
          return []
        }
        guard let conditional = member.decl.as(IfConfigDeclSyntax.self) else { return [] }
        return conditional.clauses.flatMap { clause -> [VariableDeclSyntax] in
          guard case .decls(let nested) = clause.elements else { return [] }
          return variables(in: nested)
        }
      }
    }
    return memberBlock.members.flatMap { member -> [VariableDeclSyntax] in
      guard let conditional = member.decl.as(IfConfigDeclSyntax.self) else { return [] }
      return conditional.clauses.flatMap { clause -> [VariableDeclSyntax] in
        guard case .decls(let nested) = clause.elements else { return [] }
        return variables(in: nested)
      }
    }
  }

  /// Whether the class declares a member called `name` (a type, a
  /// property, a function).
  func declaresMember(named name: String) -> Bool {
    memberBlock.members.contains { member in
      let decl = member.decl
      if let enumDecl = decl.as(EnumDeclSyntax.self) { return enumDecl.name.text == name }
      if let structDecl = decl.as(StructDeclSyntax.self) { return structDecl.name.text == name }
      if let classDecl = decl.as(ClassDeclSyntax.self) { return classDecl.name.text == name }
      if let alias = decl.as(TypeAliasDeclSyntax.self) { return alias.name.text == name }
      return false
    }
  }

  /// The members of type `Member`, such as the initializers.
  func members<Member: DeclSyntaxProtocol>(ofType _: Member.Type) -> [Member] {
    memberBlock.members.compactMap { $0.decl.as(Member.self) }
  }

  /// Whether the class declares a function called `name`.
  func declaresFunction(named name: String) -> Bool {
    members(ofType: FunctionDeclSyntax.self).contains { $0.name.text == name }
  }

  /// Whether the class's header names one of `protocols` (written with
  /// or without `Swift.`).
  func declaresConformance(toAnyOf protocols: Set<String>) -> Bool {
    inheritanceClause?.inheritedTypes.contains { inherited in
      let name = inherited.type.trimmedDescription
      return protocols.contains(name.hasPrefix("Swift.") ? String(name.dropFirst("Swift.".count)) : name)
    } ?? false
  }

  /// Whether the class declares `Codable`, `Encodable` or `Decodable`.
  var declaresCodable: Bool { declaresConformance(toAnyOf: ["Codable", "Encodable", "Decodable"]) }

  /// Whether the class declares `Codable` or `Encodable`.
  var declaresEncodable: Bool { declaresConformance(toAnyOf: ["Codable", "Encodable"]) }

  /// Whether the class declares `Codable` or `Decodable`, whose
  /// `init(from:)` Swift may synthesize.
  var declaresDecodable: Bool { declaresConformance(toAnyOf: ["Codable", "Decodable"]) }

  /// Whether the class is isolated to a global actor by an attribute it
  /// carries: `@MainActor`, or another attribute named `…Actor`.
  var isolatedToGlobalActor: Bool { globalActor != nil }

  /// The global actor the class is isolated to by an attribute it carries
  /// (`MainActor`, or another attribute named `…Actor`), without its module.
  var globalActor: String? {
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = attribute.attributeName.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
      if name == "MainActor" || (name.hasSuffix("Actor") && name != "KeyValueObservable") { return name }
    }
    return nil
  }

  var isFinal: Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.final) }
  }

  /// The class's name as code inside it writes its type: `Box<T>` for a
  /// generic class.
  var selfTypeName: String {
    let base = name.trimmedDescription
    guard let parameters = genericParameterClause?.parameters, !parameters.isEmpty else { return base }
    return base + "<" + parameters.map(\.name.trimmedDescription).joined(separator: ", ") + ">"
  }

  /// The access the generated protocol witnesses need: as visible as the
  /// class, and `open` where a subclass elsewhere must override them.
  func witnessAccess(overridable: Bool) -> String {
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.open): return overridable ? "open " : "public "
      case .keyword(.public): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }
}
