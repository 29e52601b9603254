import SwiftDiagnostics

/// Everything the macros can tell the user, with stable identifiers.
enum MacroDiagnostic: DiagnosticMessage {
  case requiresClassStruct
  case requiresClassEnum
  case requiresClassActor
  case requiresClassProtocol
  case requiresClassOther
  case localClass
  case propertyWrapper
  case multipleBindings
  case unsupportedPattern
  case insideConditionalCompilation
  /// The class declares `_name` itself, next to the observable `name`.
  case backingStorageCollision(property: String)
  /// A case of the class's own `CodingKeys` names an observable property,
  /// whose storage Codable synthesis looks for under `_name`.
  case codingKeyNamesProperty(property: String)
  /// `@Observable` on the same class: two macros would rewrite every
  /// stored property.
  case observableMacro
  /// `@ObservationIgnored` on a property of the class, which only
  /// `@Observable` reads.
  case observationIgnored
  /// The class's own `access(keyPath:)` or `withMutation(keyPath:_:)` is
  /// isolated, where reads and changes are reported from any thread.
  case isolatedObservationHook(name: String)
  /// A subclass of an observable class declares `Observable` itself: its
  /// superclass does not (the compiler refuses a second conformance), and
  /// the accessors it shares with that superclass report to no registrar.
  case observableSubclass(superclass: String)
  /// A class method in Objective-C's shape of a customisation requirement
  /// (`written`, as the class names it: `keyPathsAffectingValue(for:)`),
  /// which is never called. `property` names one of the class's for the
  /// example of a key path.
  case customizationNearMiss(
    written: String,
    requirement: CustomizationNearMiss.Requirement,
    shape: CustomizationNearMiss.Shape,
    className: String,
    property: String
  )

  var message: String {
    switch self {
    case .requiresClassStruct:
      "'@KeyValueObservable' applies to classes only: a struct is copied, so there is no one object to observe"
    case .requiresClassEnum:
      "'@KeyValueObservable' applies to classes only, not to an enum"
    case .requiresClassActor:
      "'@KeyValueObservable' applies to classes only: an actor's state cannot be observed synchronously from outside it"
    case .requiresClassProtocol:
      "'@KeyValueObservable' applies to classes only, not to a protocol; mark each conforming class instead"
    case .requiresClassOther:
      "'@KeyValueObservable' applies to classes only"
    case .localClass:
      "'@KeyValueObservable' cannot be used on a class declared inside a function or closure; "
        + "declare the class at file scope or inside another type"
    case .propertyWrapper:
      "a property with a property wrapper cannot be made observable; it stays a plain property"
    case .multipleBindings:
      "'@KeyValueObservable' cannot rewrite several properties declared in one 'var'; declare each on its own line"
    case .unsupportedPattern:
      "'@KeyValueObservable' cannot rewrite a property bound by a pattern; declare each property with its own name"
    case .insideConditionalCompilation:
      "a property inside '#if' is not made observable; declare it outside the '#if' block to observe it"
    case .backingStorageCollision(let property):
      "'_\(property)' is the name '@KeyValueObservable' gives the storage of '\(property)'; rename one of them, "
        + "or mark '\(property)' '@KeyValueIgnored'"
    case .codingKeyNamesProperty(let property):
      "'\(property)' is stored as '_\(property)' in a '@KeyValueObservable' class, and the synthesized Codable "
        + "conformance matches coding keys to storage: name this case '_\(property)', with the key it encodes "
        + "under as its raw value"
    case .observableMacro:
      "'@Observable' and '@KeyValueObservable' cannot both rewrite this class's properties; remove '@Observable' "
        + "and declare the class 'Observable' instead: '@KeyValueObservable' then makes it tracked by Swift "
        + "Observation too"
    case .observationIgnored:
      "'@ObservationIgnored' has no effect in a '@KeyValueObservable' class; use '@KeyValueIgnored', which keeps "
        + "the property out of both key-value observing and Swift Observation"
    case .isolatedObservationHook(let name):
      "'\(name)' must be 'nonisolated' for '@KeyValueObservable' to call it: reads and changes are reported from "
        + "whatever thread makes them, as '@Observable' declares its own 'nonisolated'"
    case .observableSubclass(let superclass):
      "a subclass is tracked by Swift Observation only through its superclass: declare 'Observable' on "
        + "'\(superclass)', the first '@KeyValueObservable' class, and remove it here"
    case .customizationNearMiss(let written, let requirement, let shape, let className, let property):
      switch shape {
      case .stringKeys:
        "'\(written)' with a String key is never called: 'KeyValueObservingCustomization' asks for "
          + "'\(requirement.signature)', whose key is a key path (compare it with one: 'key == \\\(className).\(property)')"
      case .objectiveCName:
        "'\(written)' is Objective-C's name and is never called here: write '\(requirement.signature)' in a "
          + "class that conforms to 'KeyValueObservingCustomization'"
      case .perKey(let property):
        "'\(written)' is Objective-C's method for the key '\(property)' and is never called here: write "
          + "'\(requirement.signature)', answering for 'key == \\\(className).\(property)', in a class that "
          + "conforms to 'KeyValueObservingCustomization'"
      }
    }
  }

  /// The stable identifier, without the parameters.
  private var id: String {
    switch self {
    case .requiresClassStruct: "requiresClassStruct"
    case .requiresClassEnum: "requiresClassEnum"
    case .requiresClassActor: "requiresClassActor"
    case .requiresClassProtocol: "requiresClassProtocol"
    case .requiresClassOther: "requiresClassOther"
    case .localClass: "localClass"
    case .propertyWrapper: "propertyWrapper"
    case .multipleBindings: "multipleBindings"
    case .unsupportedPattern: "unsupportedPattern"
    case .insideConditionalCompilation: "insideConditionalCompilation"
    case .backingStorageCollision: "backingStorageCollision"
    case .codingKeyNamesProperty: "codingKeyNamesProperty"
    case .observableMacro: "observableMacro"
    case .observationIgnored: "observationIgnored"
    case .isolatedObservationHook: "isolatedObservationHook"
    case .observableSubclass: "observableSubclass"
    case .customizationNearMiss: "customizationNearMiss"
    }
  }

  var diagnosticID: MessageID {
    MessageID(domain: "KeyValueObservingMacros", id: id)
  }

  var severity: DiagnosticSeverity {
    switch self {
    case .propertyWrapper, .insideConditionalCompilation, .customizationNearMiss: .warning
    default: .error
    }
  }
}
