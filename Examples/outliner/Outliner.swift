import KeyValueObserving

/// Runs a script's commands against a document: the command dispatcher.
///
/// No edit calls the undo stack: the stack records the document's graph,
/// and the dispatcher only makes each command one named step.
@MainActor
final class Outliner {
  let document: OutlineDocument
  let undo: KeyValueUndoStack
  let view: StatusView
  let importer = Importer()

  init(document: OutlineDocument, undo: KeyValueUndoStack, view: StatusView) {
    self.document = document
    self.undo = undo
    self.view = view
  }

  /// An edit, checked against the document and ready to make.
  private struct Edit {
    /// The name of its step, for the Edit menu.
    var name: String
    var make: () -> Void
    /// What to print once it is made.
    var report: String
  }

  /// Runs one line of the script.
  func run(_ line: String) async throws(CommandError) {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = words.first else { return }
    let rest = words.count > 1 ? words[1] : ""
    switch command {
    case "undo":
      guard undo.canUndo else {
        print("  nothing to undo")
        return
      }
      let name = undo.undoActionName
      do { try undo.undo() } catch { throw CommandError(description: "undo failed: \(error)") }
      print("  undid \(name)")
    case "redo":
      guard undo.canRedo else {
        print("  nothing to redo")
        return
      }
      let name = undo.redoActionName
      do { try undo.redo() } catch { throw CommandError(description: "redo failed: \(error)") }
      print("  redid \(name)")
    case "import":
      guard let count = Int(rest), count > 0 else { throw CommandError(description: "import takes a count") }
      guard !importer.isRunning else { throw CommandError(description: "an import is running already") }
      importer.start(count: count)
      print("  importing \(count) items in the background")
    case "wait-import":
      // The script goes on while the import runs; here it waits for it,
      // so that its items land at the same point in every run.
      let items = await importer.finish()
      guard !items.isEmpty else {
        print("  no import was running")
        return
      }
      let list = ItemList.document(document)
      undo.group(named: "Import") { list.append(contentsOf: items) }
      print("  imported \(items.count) items")
    case "status":
      printStatus()
    default:
      let edit = try edit(command, rest)
      undo.group(named: edit.name, edit.make)
      print("  " + edit.report)
    }
  }

  /// The edit a command names, checked: a wrong path or argument throws
  /// before anything changes.
  private func edit(_ command: String, _ rest: String) throws(CommandError) -> Edit {
    let document = document
    // `PATH TEXT`: the path, and the rest of the line.
    func pathAndText() throws(CommandError) -> (ItemPath, String) {
      let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { throw CommandError(description: "\(command) takes a path and a text") }
      return (try ItemPath(parsing: parts[0]), parts[1])
    }
    switch command {
    case "title":
      return Edit(name: "Title", make: { document.title = rest }, report: "title is \"\(rest)\"")
    case "add":
      let list = ItemList.document(document)
      let index = list.items.count
      return Edit(
        name: "Add", make: { list.insert(OutlineItem(text: rest), at: index) }, report: "added \"\(rest)\" at \(index)"
      )
    case "add-child":
      let (path, text) = try pathAndText()
      let list = ItemList.children(of: try document.item(at: path))
      let index = list.items.count
      return Edit(
        name: "Add Child", make: { list.insert(OutlineItem(text: text), at: index) },
        report: "added \"\(text)\" at \(path).\(index)"
      )
    case "rename":
      let (path, text) = try pathAndText()
      let item = try document.item(at: path)
      return Edit(name: "Rename", make: { item.text = text }, report: "renamed \(path) to \"\(text)\"")
    case "done", "open":
      let item = try document.item(at: ItemPath(parsing: rest))
      let done = command == "done"
      return Edit(name: done ? "Mark Done" : "Reopen", make: { item.done = done }, report: "\(rest) is \(command)")
    case "due":
      let (path, day) = try pathAndText()
      let item = try document.item(at: path)
      guard day == "none" || Int(day) != nil else { throw CommandError(description: "due takes a day number or none") }
      return Edit(
        name: "Due Date", make: { item.due = Int(day) },
        report: day == "none" ? "\(path) has no due date" : "\(path) is due on day \(day)"
      )
    case "remove":
      let path = try ItemPath(parsing: rest)
      let (list, index) = try document.location(of: path)
      let item = list.items[index]
      return Edit(
        name: "Remove", make: { list.remove(at: index) },
        report: "removed \"\(item.text)\" with its \(item.children.count) children"
      )
    case "move":
      let parts = rest.split(separator: " ")
      guard parts.count == 2, let offset = Int(parts[1]) else {
        throw CommandError(description: "move takes a path and an offset")
      }
      let path = try ItemPath(parsing: String(parts[0]))
      let (list, index) = try document.location(of: path)
      guard (0...list.items.count).contains(offset) else {
        throw CommandError(description: "no offset \(offset) there")
      }
      return Edit(
        name: "Move", make: { list.move(from: index, to: offset) }, report: "moved \(path) before offset \(offset)"
      )
    case "sort":
      // `sort` sorts the document's items; `sort PATH`, that item's children.
      if rest.isEmpty {
        return Edit(name: "Sort", make: ItemList.document(document).sortByText, report: "sorted the items")
      }
      let list = ItemList.children(of: try document.item(at: ItemPath(parsing: rest)))
      return Edit(name: "Sort", make: list.sortByText, report: "sorted the children of \(rest)")
    default:
      throw CommandError(description: "unknown command \(command)")
    }
  }

  /// The outline, one item a line, and the Edit menu's titles.
  private func printStatus() {
    print("  \(view.statusLine) | \(view.undoTitle) | \(view.redoTitle)")
    func show(_ items: [OutlineItem], under prefix: String) {
      for (index, item) in items.enumerated() {
        let path = prefix + String(index)
        let indent = String(repeating: "  ", count: path.split(separator: ".").count)
        let due = item.due.map { ", due on day \($0)" } ?? ""
        print("  \(indent)\(path) [\(item.done ? "x" : " ")] \(item.text)\(due)")
        show(item.children, under: path + ".")
      }
    }
    show(document.items, under: "")
  }
}
