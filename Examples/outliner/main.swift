import Foundation
import KeyValueObserving

/// `swift run outliner SCRIPT --autosave FILE`: a document app driven by a
/// command script, one command a line. It prints what each command does,
/// autosaves the document to FILE, and prints the final document as JSON.
/// Examples/outliner/script.txt lists the commands.

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("outliner: \(message)\n".utf8))
  exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var autosavePath = FileManager.default.temporaryDirectory.appendingPathComponent("outline.json").path
if let flag = arguments.firstIndex(of: "--autosave") {
  guard flag + 1 < arguments.count else { fail("--autosave takes a file") }
  autosavePath = arguments[flag + 1]
  arguments.removeSubrange(flag...flag + 1)
}
guard arguments.count == 1, let script = try? String(contentsOfFile: arguments[0], encoding: .utf8) else {
  fail("usage: outliner SCRIPT [--autosave FILE]")
}

// The model, its undo stack, its view and its autosave, all on the main
// actor. The tokens are globals: they live until the program ends.
let document = OutlineDocument()
let undo = KeyValueUndoStack()
let recording = undo.record(document)
let view = StatusView()
let bindings = [
  document.bind(\.summary, to: \.statusLine, on: view, coalesced: true),
  undo.bind(\.undoActionName, to: \.undoTitle, on: view) { $0.isEmpty ? "Undo" : "Undo \($0)" },
  undo.bind(\.redoActionName, to: \.redoTitle, on: view) { $0.isEmpty ? "Redo" : "Redo \($0)" },
]
let autosave = Autosave(document, to: URL(fileURLWithPath: autosavePath))
let outliner = Outliner(document: document, undo: undo, view: view)

for (number, line) in script.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
  let line = line.trimmingCharacters(in: .whitespaces)
  if line.isEmpty || line.hasPrefix("#") { continue }
  print("> \(line)")
  do {
    try await outliner.run(line)
  } catch {
    fail("line \(number + 1): \(error)")
  }
  // Each command is one user event: what it scheduled (the coalesced
  // view and autosave) runs before the next.
  await waitForCoalescedRuns()
}

print("autosaved \(autosave.writes) times to \(autosavePath)")
let saved = try Data(contentsOf: URL(fileURLWithPath: autosavePath))
let reopened = try JSONDecoder().decode(OutlineDocument.self, from: saved)
let encoded = try Autosave.encoder().encode(document)
guard try Autosave.encoder().encode(reopened) == encoded else { fail("the saved file reopens as another document") }
print("the saved file reopens as the same document")
print("final document:")
print(String(decoding: encoded, as: UTF8.self))
