import SwiftDiagnostics

/// The text of a fix-it.
struct FixMessage: FixItMessage {
  let message: String
  let id: String

  var fixItID: MessageID {
    MessageID(domain: "KeyValueObservingMacros", id: id)
  }

  static let useFinalClass = FixMessage(message: "Use 'final class'", id: "useFinalClass")
  static let addIgnored = FixMessage(message: "Mark it '@KeyValueIgnored'", id: "addIgnored")
  static let renameCodingKey = FixMessage(message: "Name the case after the property's storage", id: "renameCodingKey")
  static let removeObservableMacro = FixMessage(message: "Remove '@Observable'", id: "removeObservableMacro")
  static let useKeyValueIgnored = FixMessage(message: "Use '@KeyValueIgnored'", id: "useKeyValueIgnored")
  static let addNonisolated = FixMessage(message: "Declare it 'nonisolated'", id: "addNonisolated")
  static let useCustomizationSignature = FixMessage(
    message: "Use the requirement's name and signature, with a key path for a key",
    id: "useCustomizationSignature"
  )
}
