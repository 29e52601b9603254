import SwiftDiagnostics

/// Everything the macros can tell the user, with stable identifiers.
enum KeyValueObservingDiagnostic: String, DiagnosticMessage {
  case requiresClassStruct
  case requiresClassEnum
  case requiresClassActor
  case requiresClassProtocol
  case requiresClassOther
  case weakOrUnowned
  case propertyWrapper
  case multipleBindings
  case unsupportedPattern
  case insideConditionalCompilation

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
    case .weakOrUnowned:
      "a 'weak' or 'unowned' property cannot be made observable; it stays a plain property"
    case .propertyWrapper:
      "a property with a property wrapper cannot be made observable; it stays a plain property"
    case .multipleBindings:
      "'@KeyValueObservable' cannot rewrite several properties declared in one 'var'; declare each on its own line"
    case .unsupportedPattern:
      "'@KeyValueObservable' cannot rewrite a property bound by a pattern; declare each property with its own name"
    case .insideConditionalCompilation:
      "a property inside '#if' is not made observable; declare it outside the '#if' block to observe it"
    }
  }

  var diagnosticID: MessageID {
    MessageID(domain: "KeyValueObservingMacros", id: rawValue)
  }

  var severity: DiagnosticSeverity {
    switch self {
    case .weakOrUnowned, .propertyWrapper, .insideConditionalCompilation: .warning
    default: .error
    }
  }
}

/// The text of a fix-it.
struct FixMessage: FixItMessage {
  let message: String
  let id: String

  var fixItID: MessageID {
    MessageID(domain: "KeyValueObservingMacros", id: id)
  }

  static let useFinalClass = FixMessage(message: "Use 'final class'", id: "useFinalClass")
  static let addIgnored = FixMessage(message: "Mark it '@KeyValueIgnored'", id: "addIgnored")
}
