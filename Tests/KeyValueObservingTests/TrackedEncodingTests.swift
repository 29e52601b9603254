import Foundation
import KeyValueObserving
import Testing

/// A document an app autosaves: nested items, an array of them, an
/// optional value and an optional item.
@KeyValueObservable
final class SavedDocument: Codable {
  var title = ""
  var items: [SavedItem] = []
  var note: String?
  var cover: SavedItem?

  init() {}
}

@KeyValueObservable
final class SavedItem: Codable {
  var text = ""
  var done = false

  init(_ text: String) {
    self.text = text
  }
}

/// The same shapes as plain structs: what synthesised Codable makes of them.
private struct PlainDocument: Codable {
  var title: String
  var items: [PlainItem]
  var note: String?
  var cover: PlainItem?
}

private struct PlainItem: Codable {
  var text: String
  var done: Bool
}

/// A non-final Codable class, and subclasses: one that encodes only what
/// it inherits, as synthesis does, and one that adds its own keys.
@KeyValueObservable
class SavedShape: Codable {
  var name = ""
  var sides = 0

  init() {}
}

@KeyValueObservable
final class SavedSquare: SavedShape {
  var colour = ""
}

@KeyValueObservable
final class SavedLabelledShape: SavedShape {
  var label = ""

  private enum ExtraKeys: String, CodingKey {
    case label
  }

  override func encode(to encoder: any Encoder) throws {
    try super.encode(to: encoder)
    var container = encoder.container(keyedBy: ExtraKeys.self)
    try container.encode(label, forKey: .label)
  }
}

/// A class with its own encode(to:): the macro writes none, and the
/// class's own is called.
@KeyValueObservable
final class SelfEncoded: Encodable {
  var title = ""
  var secret = ""

  private enum Keys: String, CodingKey {
    case heading
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(title, forKey: .heading)
  }
}

/// A class with its own CodingKeys, which rename a key and leave one
/// property out: the macro's encode(to:) encodes what they name.
@KeyValueObservable
final class OwnKeys: Codable {
  var title = ""
  var draft = ""
  var count = 0

  private enum CodingKeys: String, CodingKey {
    case _title = "heading"
    case _count
  }

  init() {}
}

/// JSON with sorted keys, as a string.
private func json(_ value: some Encodable) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  // A failure shows in the comparison that follows.
  return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "encoding failed"
}

/// A tracked closure that JSON-encodes `value` at each run, and the JSON of
/// each run.
private func autosave(_ value: some Encodable) -> (Recorder<String>, KeyValueObservation) {
  let saved = Recorder<String>()
  let token = withKeyValueObservation { saved.append(json(value)) }
  return (saved, token)
}

@Suite("Codable through the getters: a tracked closure that encodes a model observes what it encoded")
struct TrackedEncodingTests {
  @Test("an autosave closure runs again after a change of the document, of an item, of the items and of an optional")
  func autosaveRerunsOnEveryChange() {
    let document = SavedDocument()
    let milk = SavedItem("milk")
    document.items = [milk]
    let (saved, token) = autosave(document)
    #expect(saved.count == 1)
    document.title = "Groceries"
    #expect(saved.count == 2)
    milk.text = "Milk"
    #expect(saved.count == 3)
    milk.done = true
    #expect(saved.count == 4)
    let eggs = SavedItem("eggs")
    document.mutableArrayValue(for: \.items).append(eggs)
    #expect(saved.count == 5)
    eggs.text = "Eggs"  // an item the last run encoded
    #expect(saved.count == 6)
    document.note = "by Friday"
    #expect(saved.count == 7)
    let cover = SavedItem("cover")
    document.cover = cover
    #expect(saved.count == 8)
    cover.done = true
    #expect(saved.count == 9)
    document.note = nil
    #expect(saved.count == 10)
    #expect(saved.elements.last == json(document))
    #expect(saved.elements.last?.contains("\"Eggs\"") == true)
    withExtendedLifetime(token) {}
  }

  @Test("an item the document no longer holds is not observed by the next run")
  func leftItemsAreNotObserved() {
    let document = SavedDocument()
    let milk = SavedItem("milk")
    document.items = [milk]
    let (saved, token) = autosave(document)
    document.items = []
    #expect(saved.count == 2)
    milk.text = "gone"
    #expect(saved.count == 2)
    withExtendedLifetime(token) {}
  }

  @Test("the JSON is what synthesised Codable makes of the same shapes, and decodes back to an equal document")
  func sameJSONAsSynthesis() throws {
    let document = SavedDocument()
    document.title = "Groceries"
    document.items = [SavedItem("milk"), SavedItem("eggs")]
    document.items[1].done = true
    document.cover = SavedItem("cover")
    let plain = PlainDocument(
      title: "Groceries", items: [PlainItem(text: "milk", done: false), PlainItem(text: "eggs", done: true)], note: nil,
      cover: PlainItem(text: "cover", done: false)
    )
    #expect(json(document) == json(plain))
    #expect(!json(document).contains("note"))  // nil is left out, as synthesis does
    document.note = "by Friday"
    var withNote = plain
    withNote.note = "by Friday"
    #expect(json(document) == json(withNote))

    let decoded = try JSONDecoder().decode(SavedDocument.self, from: Data(json(document).utf8))
    #expect(json(decoded) == json(document))
    #expect(decoded.items.map(\.text) == ["milk", "eggs"] && decoded.note == "by Friday")
    // A decoded document is tracked like any other.
    let (saved, token) = autosave(decoded)
    decoded.items[0].text = "Milk"
    #expect(saved.count == 2)
    withExtendedLifetime(token) {}
  }

  @Test("a non-final class and a subclass that adds nothing to its coding encode and are tracked as synthesis would")
  func nonFinalAndSubclass() throws {
    let shape = SavedShape()
    shape.name = "triangle"
    shape.sides = 3
    #expect(json(shape) == #"{"name":"triangle","sides":3}"#)
    let square = SavedSquare()
    square.name = "square"
    square.colour = "red"
    // Synthesis gives a subclass its superclass's encoding: no colour.
    #expect(json(square) == #"{"name":"square","sides":0}"#)
    let (saved, token) = autosave(square)
    square.sides = 4
    #expect(saved.count == 2)
    #expect(saved.elements.last == #"{"name":"square","sides":4}"#)
    let decoded = try JSONDecoder().decode(SavedSquare.self, from: Data(#"{"name":"cube","sides":6}"#.utf8))
    #expect(decoded.name == "cube" && decoded.sides == 6)
    withExtendedLifetime(token) {}
  }

  @Test("a subclass that overrides encode(to:) and calls super is tracked through both")
  func subclassOverride() {
    let shape = SavedLabelledShape()
    shape.label = "A"
    #expect(json(shape) == #"{"label":"A","name":"","sides":0}"#)
    let (saved, token) = autosave(shape)
    shape.name = "point"
    shape.label = "B"
    #expect(saved.count == 3)
    #expect(saved.elements.last == #"{"label":"B","name":"point","sides":0}"#)
    withExtendedLifetime(token) {}
  }

  @Test("a class's own encode(to:) is the one called, and what it reads through getters is tracked")
  func ownEncodeIsLeftAlone() {
    let object = SelfEncoded()
    object.title = "T"
    object.secret = "s"
    #expect(json(object) == #"{"heading":"T"}"#)
    let (saved, token) = autosave(object)
    object.secret = "not encoded"
    #expect(saved.count == 1)
    object.title = "U"
    #expect(saved.count == 2)
    withExtendedLifetime(token) {}
  }

  @Test("a class with its own CodingKeys encodes what they name, under their keys, and is tracked for it alone")
  func ownCodingKeysAreTracked() throws {
    let object = OwnKeys()
    object.title = "T"
    object.draft = "not saved"
    #expect(json(object) == #"{"_count":0,"heading":"T"}"#)
    let (saved, token) = autosave(object)
    object.title = "U"
    #expect(saved.elements == [#"{"_count":0,"heading":"T"}"#, #"{"_count":0,"heading":"U"}"#])
    object.count = 2
    #expect(saved.count == 3)
    object.draft = "left out of the keys"
    #expect(saved.count == 3, "a property the keys leave out is not read, so not observed")
    let decoded = try JSONDecoder().decode(OwnKeys.self, from: Data(json(object).utf8))
    #expect(decoded.title == "U" && decoded.count == 2 && decoded.draft == "")
    withExtendedLifetime(token) {}
  }
}
