import KeyValueObserving

/// An outline: a document with items that have children, as a document app
/// holds one.
@KeyValueObservable
final class Outline: @unchecked Sendable {
  let name: String
  var title = ""
  var items: [OutlineItem] = []
  weak var selection: OutlineItem?
  var tags: Set<OutlineTag> = []
  var byName: [String: OutlineItem] = [:]
  var printer: PlainPrinter?
  @KeyValueIgnored var cached: OutlineItem?

  init(_ name: String = "outline") {
    self.name = name
  }
}

@KeyValueObservable
final class OutlineItem: @unchecked Sendable, CustomStringConvertible {
  let name: String
  var text = ""
  var done = false
  var children: [OutlineItem] = []
  weak var parent: OutlineItem?
  var note: OutlineNote?

  init(_ name: String, text: String = "", children: [OutlineItem] = []) {
    self.name = name
    self.text = text
    self.children = children
    for child in children { child.parent = self }
  }

  var description: String { name }
}

@KeyValueObservable
final class OutlineNote: @unchecked Sendable {
  let name: String
  var body = ""
  var owner: OutlineItem?

  init(_ name: String) {
    self.name = name
  }
}

@KeyValueObservable
final class OutlineTag: @unchecked Sendable {
  let name: String
  var color = 0

  init(_ name: String) {
    self.name = name
  }
}

extension OutlineTag: Hashable {
  static func == (lhs: OutlineTag, rhs: OutlineTag) -> Bool { lhs === rhs }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Not marked `@KeyValueObservable`.
final class PlainPrinter: @unchecked Sendable {
  var queue: [OutlineItem] = []
}

/// One change a graph delivered, comparable: whose key, which, and what.
struct GraphEvent: Equatable, Sendable, CustomStringConvertible {
  var object: String
  var key: String
  var kind: KeyValueChange
  var old: String?
  var new: String?
  var indexes: [Range<Int>]?
  var isPrior = false

  init(
    _ object: String, _ key: String, _ kind: KeyValueChange = .setting, old: String? = nil, new: String? = nil,
    indexes: [Range<Int>]? = nil, isPrior: Bool = false
  ) {
    self.object = object
    self.key = key
    self.kind = kind
    self.old = old
    self.new = new
    self.indexes = indexes
    self.isPrior = isPrior
  }

  init(_ change: KeyValueGraphChange) {
    self.init(
      Self.name(of: change.object), change.key, change.change.kind,
      old: change.change.oldValue.map(Self.describe), new: change.change.newValue.map(Self.describe),
      indexes: change.change.indexes.map { Array($0.ranges) }, isPrior: change.change.isPrior
    )
  }

  static func name(of object: Any) -> String {
    switch object {
    case let outline as Outline: outline.name
    case let item as OutlineItem: item.name
    case let note as OutlineNote: note.name
    case let tag as OutlineTag: tag.name
    default: "\(type(of: object))"
    }
  }

  /// A value as the tests write it: objects by name, arrays in brackets,
  /// `nil` as "nil".
  static func describe(_ value: Any) -> String {
    if let optional = value as? OutlineItem? { return optional.map(name) ?? "nil" }
    if let items = value as? [OutlineItem] { return "[" + items.map(name).joined(separator: ",") + "]" }
    if let tags = value as? Set<OutlineTag> { return "{" + tags.map(name).sorted().joined(separator: ",") + "}" }
    return "\(value)"
  }

  var description: String {
    "\(object).\(key) \(kind) \(indexes.map { "\($0)" } ?? "") \(old ?? "-") → \(new ?? "-")\(isPrior ? " prior" : "")"
  }
}

/// Observes `root`'s graph with `options`, recording every change.
func recordGraph(
  _ root: some KeyValueObservable,
  options: KeyValueObservingOptions = [.old, .new]
) -> (Recorder<GraphEvent>, KeyValueObservation) {
  let recorder = Recorder<GraphEvent>()
  let token = root.observeGraph(options: options) { recorder.append(GraphEvent($0)) }
  return (recorder, token)
}
