import KeyValueObserving

/// A script's mistake: the line, and what is wrong with it.
struct CommandError: Error, CustomStringConvertible {
  var description: String
}

/// Where an item is: `2` is the document's third item, `2.0` that
/// item's first child.
struct ItemPath: CustomStringConvertible {
  var indexes: [Int]

  init(parsing text: String) throws(CommandError) {
    var indexes: [Int] = []
    for part in text.split(separator: ".", omittingEmptySubsequences: false) {
      guard let index = Int(part), index >= 0 else { throw CommandError(description: "not an item path: \(text)") }
      indexes.append(index)
    }
    self.indexes = indexes
  }

  var description: String { indexes.map(String.init).joined(separator: ".") }
}

/// The list an item is in: the document's items, or another item's
/// children. Edits go through the array proxy, which reports one change
/// per call with its indexes: an insertion, a removal, one replacement
/// for a whole move or sort.
@MainActor
enum ItemList {
  case document(OutlineDocument)
  case children(of: OutlineItem)

  var items: [OutlineItem] {
    switch self {
    case .document(let document): document.items
    case .children(let parent): parent.children
    }
  }

  func insert(_ item: OutlineItem, at index: Int) {
    switch self {
    case .document(let document): document.mutableArrayValue(for: \.items).insert(item, at: index)
    case .children(let parent): parent.mutableArrayValue(for: \.children).insert(item, at: index)
    }
  }

  func append(contentsOf items: [OutlineItem]) {
    switch self {
    case .document(let document): document.mutableArrayValue(for: \.items).append(contentsOf: items)
    case .children(let parent): parent.mutableArrayValue(for: \.children).append(contentsOf: items)
    }
  }

  func remove(at index: Int) {
    switch self {
    case .document(let document): _ = document.mutableArrayValue(for: \.items).remove(at: index)
    case .children(let parent): _ = parent.mutableArrayValue(for: \.children).remove(at: index)
    }
  }

  /// Moves the item at `index` before the one at `offset` (counted
  /// before the move; `count` for the end), as SwiftUI's `onMove` does.
  func move(from index: Int, to offset: Int) {
    let source: KeyValueIndexSet = [index..<index + 1]
    switch self {
    case .document(let document): document.mutableArrayValue(for: \.items).move(fromOffsets: source, toOffset: offset)
    case .children(let parent): parent.mutableArrayValue(for: \.children).move(fromOffsets: source, toOffset: offset)
    }
  }

  /// Sorts the list by text, in one change.
  func sortByText() {
    switch self {
    case .document(let document): document.mutableArrayValue(for: \.items).sort { $0.text < $1.text }
    case .children(let parent): parent.mutableArrayValue(for: \.children).sort { $0.text < $1.text }
    }
  }
}

extension OutlineDocument {
  /// The list the item at `path` is in, and its index there.
  func location(of path: ItemPath) throws(CommandError) -> (list: ItemList, index: Int) {
    var list = ItemList.document(self)
    for (depth, index) in path.indexes.enumerated() {
      guard list.items.indices.contains(index) else { throw CommandError(description: "no item at \(path)") }
      if depth == path.indexes.count - 1 { return (list, index) }
      list = .children(of: list.items[index])
    }
    throw CommandError(description: "no item at \(path)")
  }

  /// The item at `path`.
  func item(at path: ItemPath) throws(CommandError) -> OutlineItem {
    let (list, index) = try location(of: path)
    return list.items[index]
  }
}
