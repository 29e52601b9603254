import KeyValueObserving

/// What a window would show: a status line, and the titles of the Edit
/// menu's Undo and Redo items. A plain class: bindings keep it in sync,
/// and it prints each line that changes, as a screen would redraw it.
@MainActor
final class StatusView {
  var statusLine = "" {
    didSet { if statusLine != oldValue { print("  view: \(statusLine)") } }
  }
  var undoTitle = ""
  var redoTitle = ""
}
