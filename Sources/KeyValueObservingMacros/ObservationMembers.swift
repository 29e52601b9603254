import SwiftSyntax
import SwiftSyntaxBuilder

/// The members `@KeyValueObservable` adds to a class that declares
/// `Observable`, so that Swift Observation tracks it: the registrar
/// Observation's trackings go through, and the member that reports an event
/// of one of its properties to it.
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
    [registrarMember, eventMember, mutationMember] + keyPathMembers
  }

  /// A key path for each property with `nonisolated(unsafe)` storage (see
  /// ``ClassDeclSyntax/directlyAccessedProperties``), as a static constant
  /// that the two members below hand to the registrar.
  ///
  /// A key path literal is looked up in the runtime's cache and retained
  /// each time it runs; a constant is a load, and a borrow of it needs no
  /// retain. On every write and every tracked read that saves about 80
  /// instructions and an atomic retain–release pair — what puts the
  /// class's unobserved write below `@Observable`'s, which forms its
  /// literal each time.
  ///
  /// The constant names the property's storage, not the property: a
  /// `nonisolated` constant may only be initialised with a key path that
  /// reaches nothing isolated, and the property is isolated in a class
  /// that is — or that the module makes (`-default-isolation MainActor`,
  /// which the macro cannot see). Observation only needs one key path per
  /// property, the same for reads and changes, and every report of a slot
  /// goes through these members.
  var keyPathMembers: [DeclSyntax] {
    properties.filter(keptKeyPaths.contains).map { name in
      "private nonisolated static let \(raw: Names.observationKeyPath(of: name)) = \\\(raw: classDecl.selfTypeName).\(raw: Names.storage(of: name))"
    }
  }

  /// The key path of a property as the two members below write it.
  private func keyPath(of name: String) -> String {
    keptKeyPaths.contains(name)
      ? "Self.\(Names.observationKeyPath(of: name))" : "\\\(classDecl.selfTypeName).\(name)"
  }

  /// Observation's registrar, as `@Observable` keeps one.
  var registrarMember: DeclSyntax {
    "\(raw: access)nonisolated let \(raw: Names.observationRegistrar) = \(raw: Names.observationRegistrarType)()"
  }

  /// Reports an event of the property at a slot with the property's key
  /// path; a subclass's slots, through the key path its table gives. This
  /// `nonisolated` member cannot name a key path to an isolated property
  /// except as a pattern (see the key table's `_$kvoKeyPath(forSlot:)`),
  /// and the property may be isolated without the macro seeing it (a
  /// module whose default isolation is the main actor): a property whose
  /// key path is not kept as a constant is reported through the key path
  /// its pattern captured.
  var eventMember: DeclSyntax {
    let firstSlot = Names.firstSlot(ofClass: className)
    let byPattern = properties.contains { !keptKeyPaths.contains($0) }
    let report = "\(Names.observationRegistrar).\(Names.observationReport)"
    let cases = properties.enumerated().map { index, name in
      switch (byPattern, keptKeyPaths.contains(name)) {
      case (true, true): "case (\(index), _): \(report)(event, self, \(keyPath(of: name)))"
      case (true, false): "case (\(index), \\\(classDecl.selfTypeName).\(name)): \(report)(event, self, capture.keyPath)"
      case (false, _): "case \(index): \(report)(event, self, \(keyPath(of: name)))"
      }
    }
    let fallback = "\(report)(event, self, type(of: self).\(Names.keyPathForSlot)(forSlot: slot))"
    let subject = byPattern ? "(slot - Self.\(firstSlot), capture)" : "slot - Self.\(firstSlot)"
    let preamble = byPattern ? "let capture = \(Names.keyPathCapture)()\n" : ""
    return """
      \(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) {
        \(raw: preamble)switch \(raw: subject) {
        \(raw: (cases + ["default: \(fallback)"]).joined(separator: "\n"))
        }
      }
      """
  }

  /// Runs a mutation of the property at a slot inside the registrar's
  /// `withMutation`, with the key path kept as a constant. A subclass's
  /// slots, and those whose key paths are not kept (which this member could
  /// not name where the property is isolated), go through the two events.
  var mutationMember: DeclSyntax {
    let firstSlot = Names.firstSlot(ofClass: className)
    let byEvents = "return \(Names.observedMutationByEvents)(ofSlot: slot, mutation)"
    let cases = properties.enumerated().compactMap { index, name -> String? in
      guard keptKeyPaths.contains(name) else { return nil }
      return "case \(index): return \(Names.observationRegistrar).withMutation(of: self, keyPath: \(keyPath(of: name)), mutation)"
    }
    return """
      \(raw: access)nonisolated final func \(raw: Names.observedMutation)<Result>(ofSlot slot: Swift.Int, _ mutation: () -> Result) -> Result {
        switch slot - Self.\(raw: firstSlot) {
        \(raw: (cases + ["default: \(byEvents)"]).joined(separator: "\n"))
        }
      }
      """
  }
}
