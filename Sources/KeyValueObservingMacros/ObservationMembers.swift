import SwiftSyntax
import SwiftSyntaxBuilder

/// The members `@KeyValueObservable` adds to a class that declares
/// `Observable`, so that Swift Observation tracks it: the registrar
/// Observation's trackings go through, and the member that reports an event
/// of one of its properties to it. A mutation is reported as its two
/// events, as `ObservationRegistrar.withMutation` does, by the runtime
/// (`_$kvoObservedMutation(ofSlot:_:)` for `Observable` classes).
///
/// The accessors stay as they are for every class: for a tracked one, the
/// compiler picks the runtime's overloads that report to Observation. A
/// subclass inherits all of it and adds nothing: the properties it declares
/// are reported through their key paths from its key table.
struct ObservationMembers {
  let classDecl: ClassDeclSyntax
  /// The observable stored properties, in slot order.
  let properties: [String]
  /// The properties whose key paths the class keeps in static constants
  /// (see ``keyPathMembers``).
  let keptKeyPaths: Set<String>

  /// - Parameter canHoldStaticStorage: whether a static stored property
  ///   compiles in the class: false when it, or a type around it, is
  ///   generic, or when it sits in an extension (of a type that may be).
  init(classDecl: ClassDeclSyntax, properties: [String], canHoldStaticStorage: Bool) {
    self.classDecl = classDecl
    self.properties = properties
    keptKeyPaths = canHoldStaticStorage ? classDecl.directlyAccessedProperties : []
  }

  private var className: String { classDecl.name.trimmedDescription }
  private var access: String { classDecl.witnessAccess(overridable: false) }

  var members: [DeclSyntax] {
    let reports = declaresHook(Names.accessHook) ? [hookedEventMember] : [eventMember] + keyPathMembers
    return [registrarMember] + reports + (declaresHook(Names.mutationHook) ? [hookedMutationMember] : [])
  }

  /// Whether the class declares its own `access(keyPath:)` or
  /// `withMutation(keyPath:_:)` (named by `hook`): the methods `@Observable`
  /// routes every tracked read and every write through, which a class
  /// declares to intercept them. The macro then routes through them too.
  /// One the macro cannot call from its `nonisolated` members (isolated
  /// with its class, not marked `nonisolated`) is left out, and diagnosed
  /// (``isolatedHooks``).
  func declaresHook(_ hook: String) -> Bool {
    guard let function = classDecl.observationHook(named: hook) else { return false }
    return !classDecl.isolatedToGlobalActor || function.isNonisolated
  }

  /// The hooks the class declares isolated with it, which the macro cannot
  /// call: each one an error with a fix-it.
  var isolatedHooks: [FunctionDeclSyntax] {
    guard classDecl.isolatedToGlobalActor else { return [] }
    return [Names.accessHook, Names.mutationHook].compactMap { classDecl.observationHook(named: $0) }
      .filter { !$0.isNonisolated }
  }

  /// The event member of a class that declares `access(keyPath:)`: a
  /// tracked read goes through it, with the property's key path; the
  /// other events go to the registrar. The key path's type is found at run
  /// time (a dynamic cast per read), a cost only such a class pays.
  var hookedEventMember: DeclSyntax {
    """
      @inline(never) \(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) {
        guard case .access = event, let keyPath = \(raw: typedKeyPath) else {
          return \(raw: reportFromTable)
        }
        func report(_ keyPath: some \(raw: Names.typedKeyPath)<\(raw: classDecl.selfTypeName)>) { access(keyPath: keyPath._$kvoTyped) }
        report(keyPath)
      }
      """
  }

  /// The mutation member of a class that declares `withMutation(keyPath:_:)`:
  /// every change of a property it can name as its own goes through it,
  /// with the property's key path; any other (a subclass's) is its will
  /// and did, as for every tracked class.
  var hookedMutationMember: DeclSyntax {
    """
    \(raw: access)nonisolated final func \(raw: Names.observedMutation)<Result>(ofSlot slot: Swift.Int, _ mutation: () -> Result) -> Result {
      guard let keyPath = \(raw: typedKeyPath) else {
        return \(raw: Names.mutationAsEvents)(ofSlot: slot, mutation)
      }
      func mutate(_ keyPath: some \(raw: Names.typedKeyPath)<\(raw: classDecl.selfTypeName)>) -> Result { withMutation(keyPath: keyPath._$kvoTyped, mutation) }
      return mutate(keyPath)
    }
    """
  }

  /// Reports the event to the registrar with the key path the key table
  /// holds for `slot`: for a slot whose key path the class keeps no
  /// constant of, and for every event a hook does not take.
  private var reportFromTable: String {
    "\(Names.observationRegistrar).\(Names.observationReport)(event, self, type(of: self).\(Names.keyPathForSlot)(forSlot: slot))"
  }

  /// The key path of the property at `slot`, from the key table, opened to
  /// its types when the class declares the property (a subclass's is
  /// rooted elsewhere).
  private var typedKeyPath: String {
    "type(of: self).\(Names.keyPathForSlot)(forSlot: slot) as? any \(Names.typedKeyPath)<\(classDecl.selfTypeName)>"
  }

  /// The key path of each property with `nonisolated(unsafe)` storage (see
  /// ``ClassDeclSyntax/directlyAccessedProperties``), in one static
  /// constant — a tuple of them, or the one — that the event member hands
  /// to the registrar from.
  ///
  /// A key path literal is looked up in the runtime's cache and retained
  /// each time it runs; a constant is a load, and a borrow of it needs no
  /// retain. On every write and every tracked read that saves about 80
  /// instructions and an atomic retain–release pair — what puts the
  /// class's unobserved write below `@Observable`'s, which forms its
  /// literal each time. One constant for all of them, not one each: each
  /// static constant is an initializer and an accessor that a release
  /// build compiles.
  ///
  /// Observation hears about the property's own key path (`\Sheet.title`),
  /// as `@Observable` reports it: anything that compares the key paths it
  /// is told about sees the property. A `nonisolated` constant may not form
  /// a key path to a property that is isolated — in a class that is, or that
  /// the module makes so (`-default-isolation MainActor`, which the macro
  /// cannot see) — so the constant is initialised, once, from the class's
  /// key table, which holds every property's key path, and names the
  /// storage only for the type (`_$kvoObservedKeyPaths(_:)`: one call for
  /// the whole constant, not one per property, which a release build
  /// compiles each).
  /// A root class's slots start at 0.
  var keyPathMembers: [DeclSyntax] {
    let type = classDecl.selfTypeName
    let kept = keptProperties.map { name in (slot: properties.firstIndex(of: name) ?? 0, name: name) }
    guard !kept.isEmpty else { return [] }
    // One property gives the key path itself: a one-element pack is not a
    // tuple.
    let value =
      "\(type).\(Names.observedKeyPaths)("
      + kept.map { "(\($0.slot), \\\(type).\(Names.storage(of: $0.name)))" }.joined(separator: ", ") + ")"
    // `nonisolated(unsafe)`: a key path is immutable, but the standard
    // library declares `KeyPath` Sendable only for literals; the constant
    // is written once, by its initializer.
    return ["private nonisolated(unsafe) static let \(raw: Names.observationKeyPaths) = \(raw: value)"]
  }

  /// The properties whose key paths the class keeps, in slot order.
  private var keptProperties: [String] {
    properties.filter(keptKeyPaths.contains)
  }

  /// A kept property's key path, as the event member reads it from the
  /// constant.
  private func keyPath(of name: String) -> String {
    let kept = keptProperties
    guard kept.count > 1, let index = kept.firstIndex(of: name) else { return "Self.\(Names.observationKeyPaths)" }
    return "Self.\(Names.observationKeyPaths).\(index)"
  }

  /// Observation's registrar, as `@Observable` keeps one.
  var registrarMember: DeclSyntax {
    "\(raw: access)nonisolated let \(raw: Names.observationRegistrar) = \(raw: Names.observationRegistrarType)()"
  }

  /// Reports an event of the property at a slot with the key path kept as
  /// a constant; every other slot — a subclass's, or a property whose key
  /// path the class cannot keep (a generic class's, or one with observers
  /// of its own, whose storage is isolated) — with the key path its key
  /// table holds, the same for each of its events.
  ///
  /// Never inlined: every getter and setter calls it with a constant slot,
  /// and its switch and reports inlined into each of them made a release
  /// build of such a class compile them once per accessor. The call costs
  /// a few nanoseconds on a path that goes on into Observation's registrar.
  var eventMember: DeclSyntax {
    let firstSlot = Names.firstSlot(ofClass: className)
    let report = "\(Names.observationRegistrar).\(Names.observationReport)"
    let cases = properties.enumerated().compactMap { index, name -> String? in
      guard keptKeyPaths.contains(name) else { return nil }
      return "case \(index): \(report)(event, self, \(keyPath(of: name)))"
    }
    let fallback = reportFromTable
    guard !cases.isEmpty else {
      return "@inline(never) \(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) { \(raw: fallback) }"
    }
    let body = ["switch slot - Self.\(firstSlot) {"] + cases + ["default: \(fallback)", "}"]
    return """
      @inline(never) \(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) {\(raw: indented(body))
      }
      """
  }
}

extension ClassDeclSyntax {
  /// The class's own method named `hook` whose first parameter is labelled
  /// `keyPath`: `access(keyPath:)` or `withMutation(keyPath:_:)`.
  func observationHook(named hook: String) -> FunctionDeclSyntax? {
    for member in memberBlock.members {
      guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == hook,
        function.signature.parameterClause.parameters.first?.firstName.text == "keyPath"
      else { continue }
      return function
    }
    return nil
  }
}

extension FunctionDeclSyntax {
  /// Whether it is marked `nonisolated`.
  var isNonisolated: Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
  }

  /// The function marked `nonisolated`, after its other modifiers; with
  /// none before it, the modifier takes over the `func` keyword's place on
  /// its line.
  var markedNonisolated: FunctionDeclSyntax {
    var modifier = DeclModifierSyntax(name: .keyword(.nonisolated), trailingTrivia: .space)
    var marked = self
    if attributes.isEmpty && modifiers.isEmpty {
      modifier.leadingTrivia = funcKeyword.leadingTrivia
      marked.funcKeyword.leadingTrivia = []
    }
    marked.modifiers.append(modifier)
    return marked
  }
}
