import Foundation
import KeyValueObserving
import Testing

@KeyValueObservable
final class Doc: Codable {
  var title = ""
  var pages = 0
  var summary: String { "\(title) (\(pages))" }

  init() {}
}

/// Encodable only, with a constant, an ignored property and an optional.
@KeyValueObservable
final class Receipt: Encodable {
  let number: Int
  let currency = "EUR"
  var total = 0
  var note: String?
  @KeyValueIgnored var printed = false

  init(number: Int) {
    self.number = number
  }
}

/// Decodable only, with a property named by a keyword.
@KeyValueObservable
final class Setting: Decodable {
  var `default` = ""
  var enabled = false
}

/// A class that names its own coding keys keeps them (named after the
/// storage, as the macro asks).
@KeyValueObservable
final class Renamed: Codable {
  var title = ""

  private enum CodingKeys: String, CodingKey {
    case _title = "heading"
  }

  init() {}
}

/// Coding keys that leave out a property whose typed initial value calls
/// an initializer: decoding gives it that value.
@KeyValueObservable
final class Cached: Codable {
  var title = ""
  var cache: Counts = Counts(hits: 3)

  private enum CodingKeys: String, CodingKey {
    case _title = "title"
  }
}

@KeyValueObservable
final class Counts {
  var hits: Int

  init(hits: Int) {
    self.hits = hits
  }
}

/// JSON with sorted keys, as a string.
private func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

@Suite("Codable models: encoded under the properties' own names, and nothing else")
struct CodableModelTests {
  @Test("a Codable model encodes its properties by name, without backing storage or registrar")
  func encodes() throws {
    let doc = Doc()
    doc.title = "Notes"
    doc.pages = 3
    #expect(try json(doc) == #"{"pages":3,"title":"Notes"}"#)
  }

  @Test("a decoded model holds the values and is observable like any other")
  func decodesAndObserves() throws {
    let doc = try JSONDecoder().decode(Doc.self, from: Data(#"{"title":"Draft","pages":2}"#.utf8))
    #expect(doc.title == "Draft")
    #expect(doc.pages == 2)
    let summaries = Recorder<String>()
    let token = doc.observe(\.summary, options: .new) { _, change in summaries.append(change.newValue!) }
    doc.pages = 5
    #expect(summaries.elements == ["Draft (5)"])
    #expect(try json(doc) == #"{"pages":5,"title":"Draft"}"#)
    _ = token
  }

  @Test("Encodable only: constants without an initial value and ignored properties are encoded, by name")
  func encodableOnly() throws {
    let receipt = Receipt(number: 7)
    receipt.total = 12
    #expect(try json(receipt) == #"{"number":7,"printed":false,"total":12}"#)
    receipt.note = "paid"
    #expect(try json(receipt) == #"{"note":"paid","number":7,"printed":false,"total":12}"#)
  }

  @Test("Decodable only, with a keyword-named property")
  func decodableOnly() throws {
    let setting = try JSONDecoder().decode(Setting.self, from: Data(#"{"default":"on","enabled":true}"#.utf8))
    #expect(setting.default == "on")
    #expect(setting.enabled)
  }

  @Test("a model's own CodingKeys are kept")
  func ownCodingKeys() throws {
    let renamed = Renamed()
    renamed.title = "x"
    #expect(try json(renamed) == #"{"heading":"x"}"#)
    let decoded = try JSONDecoder().decode(Renamed.self, from: Data(#"{"heading":"y"}"#.utf8))
    #expect(decoded.title == "y")
  }

  @Test("a property the coding keys leave out, with an initial value that calls an initializer, has that value once decoded")
  func leftOutPropertyKeepsItsInitialValue() throws {
    let decoded = try JSONDecoder().decode(Cached.self, from: Data(#"{"title":"t"}"#.utf8))
    #expect(decoded.title == "t")
    #expect(decoded.cache.hits == 3)
    let seen = Recorder<Int>()
    let token = decoded.observe(\.cache.hits, options: .new) { _, change in seen.append(change.newValue!) }
    decoded.cache = Counts(hits: 4)
    decoded.cache.hits = 5
    #expect(seen.elements == [4, 5])
    #expect(try json(decoded) == #"{"title":"t"}"#)
    _ = token
  }
}
