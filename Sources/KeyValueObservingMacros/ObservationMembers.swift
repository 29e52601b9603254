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
    [registrarMember, eventMember] + keyPathMembers
  }

  /// A key path for each property with `nonisolated(unsafe)` storage (see
  /// ``ClassDeclSyntax/directlyAccessedProperties``), as a static constant
  /// that the event member hands to the registrar.
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
  /// goes through the event member.
  var keyPathMembers: [DeclSyntax] {
    properties.filter(keptKeyPaths.contains).map { name in
      "private nonisolated static let \(raw: Names.observationKeyPath(of: name)) = \\\(raw: classDecl.selfTypeName).\(raw: Names.storage(of: name))"
    }
  }

  /// The constant holding a property's key path, as the event member
  /// writes it.
  private func keyPath(of name: String) -> String {
    "Self.\(Names.observationKeyPath(of: name))"
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
  var eventMember: DeclSyntax {
    let firstSlot = Names.firstSlot(ofClass: className)
    let report = "\(Names.observationRegistrar).\(Names.observationReport)"
    let cases = properties.enumerated().compactMap { index, name -> String? in
      guard keptKeyPaths.contains(name) else { return nil }
      return "case \(index): \(report)(event, self, \(keyPath(of: name)))"
    }
    let fallback = "\(report)(event, self, type(of: self).\(Names.keyPathForSlot)(forSlot: slot))"
    guard !cases.isEmpty else {
      return "\(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) { \(raw: fallback) }"
    }
    let body = ["switch slot - Self.\(firstSlot) {"] + cases + ["default: \(fallback)", "}"]
    return """
      \(raw: access)nonisolated final func \(raw: Names.observationEvent)(_ event: \(raw: Names.observationEventType), slot: Swift.Int) {\(raw: indented(body))
      }
      """
  }
}
