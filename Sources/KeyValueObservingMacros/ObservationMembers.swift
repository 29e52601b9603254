import SwiftSyntax
import SwiftSyntaxBuilder

/// The members `@KeyValueObservable` adds to a class that declares
/// `Observable`, so that Swift Observation tracks it: the registrar
/// Observation's trackings go through, and the member that reports an event
/// of one of its properties to it. A mutation is reported as its two
/// events, as `ObservationRegistrar.withMutation` does, by the runtime
/// (`_$kvoObservedMutation(ofSlot:_:)` for `Observable` classes).
///
/// The accessors of such a class call the runtime's tracked forms
/// (`trackedAccess`, and `_notifyingTrackedSet`, to which a setter hands the
/// registrar: see `KeyValueObservablePropertyMacro`), which also report to
/// Observation. A subclass inherits all of it and adds nothing: the
/// properties it declares are reported through their key paths from its
/// key table.
///
/// Beside `@Observable`'s expansion, member by member: the registrar is the
/// same line; `@Observable`'s `access(keyPath:)` and
/// `withMutation(keyPath:_:)` are this event member, one line that takes a
/// slot instead of a key path (the runtime finds the key path, once per
/// class); there is nothing else.
struct ObservationMembers {
  let classDecl: ClassDeclSyntax
  /// Whether the class holds its key table in a static constant (see
  /// `KeyTable`): false for a generic class, or one in an extension.
  var canHoldStaticStorage = true

  private var access: String { classDecl.witnessAccess(overridable: false) }

  var members: [DeclSyntax] {
    let reports = declaresHook(Names.accessHook) ? [hookedEventMember] : [eventMember]
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
          return \(raw: report)
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

  /// Reports the event to the registrar, through the runtime, which names
  /// the property at `slot` by the key path the class's key table holds.
  /// The table's own constant where the class has one, which the call
  /// borrows: `_$kvoKeys` hands out a reference it must retain.
  private var report: String {
    let table = canHoldStaticStorage ? Names.keyTable(ofClass: classDecl.name.trimmedDescription) : Names.keys
    return "\(Names.observationRegistrar).\(Names.observationReport)(event, self, slot: slot, in: Self.\(table))"
  }

  /// The key path of the property at `slot`, from the key table, opened to
  /// its types when the class declares the property (a subclass's is
  /// rooted elsewhere).
  private var typedKeyPath: String {
    "type(of: self).\(Names.keyPathForSlot)(forSlot: slot) as? any \(Names.typedKeyPath)<\(classDecl.selfTypeName)>"
  }

  /// Observation's registrar, as `@Observable` keeps one.
  var registrarMember: DeclSyntax {
    "\(raw: access)nonisolated let \(raw: Names.observationRegistrar) = \(raw: Names.observationRegistrarType)()"
  }

  /// Reports an event of one of the class's properties (its subclasses'
  /// included) to the registrar. One line: the runtime finds the property's
  /// key path and reports it with its types, in code compiled once (see
  /// `ObservationReporter`), so a release build compiles no switch over
  /// the slots and no constant of key paths for each class.
  ///
  /// Never inlined: every getter and setter calls it, and inlined its
  /// reach of the table's constant (a check that it is initialised, and
  /// the call that initialises it) would be in each of them.
  var eventMember: DeclSyntax {
    "@inline(never) \(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) { \(raw: report) }"
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
