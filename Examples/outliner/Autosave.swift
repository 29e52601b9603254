import Foundation
import KeyValueObserving

/// Saves the document as JSON after every command that changed anything
/// it encodes: the closure encodes the document, and what encoding reads
/// is what it observes, nested items included.
@MainActor
final class Autosave {
  let url: URL
  private(set) var writes = 0
  private var token: KeyValueObservation?

  /// Sorted keys and pretty printing: the same document makes the same
  /// bytes, which CI compares.
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  init(_ document: OutlineDocument, to url: URL) {
    self.url = url
    let encoder = Self.encoder()
    // Coalesced: a command that makes several changes is saved once, after it.
    token = withKeyValueObservation(tracking: .coalesced) { [unowned self] in
      do {
        try save(encoder.encode(document))
      } catch {
        print("  autosave failed: \(error)")
      }
    }
  }

  private func save(_ data: Data) throws {
    try (data + Data("\n".utf8)).write(to: url, options: .atomic)
    writes += 1
  }
}
