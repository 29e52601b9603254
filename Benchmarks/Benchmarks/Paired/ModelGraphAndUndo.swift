import Benchmark
import KeyValueObserving

/// A model graph (issue 65), each row against what a user writes by hand
/// in its place: a write to an object of an observed graph against the
/// same write with one observer of the key, and observing a graph against
/// observing each of its objects' keys one by one (and against itself at
/// another size, for its order).
func modelGraphBenchmarks() {
  // The item written is one of 100 in its document; the reference observes
  // the same key of an item of its own, with the same options (the
  // graph's default) and an empty handler too.
  paired("paired: write to an item of an observed graph of 100 ÷ write, 1 observer of the key", operations: 2_000) {
    let document = PairedDocument(items: 99)
    let graph = document.observeGraph { _ in }
    let item = document.items[50]
    let alone = PairedItem()
    let token = alone.observe(\.text, options: [.old, .new]) { _, _ in }
    return Pair(
      reference: kept(token) { index in alone.text = index & 1 == 0 ? "a" : "b" },
      ours: kept((graph, document)) { index in item.text = index & 1 == 0 ? "a" : "b" }
    )
  }

  // The same write of an `Int`, against the one-observer write of every
  // other row (`observedWrites(observers: 1)`), its handler reading the
  // new value as that one's does.
  paired("paired: write to an Int of an item of an observed graph of 100 ÷ write, 1 observer", operations: 2_000) {
    let document = PairedDocument(items: 99)
    let graph = document.observeGraph { change in blackHole(change.change.newValue) }
    let item = document.items[50]
    return Pair(reference: observedWrites(observers: 1), ours: kept((graph, document)) { index in item.count = index })
  }

  // O(N): a graph ten times the size, its objects' storages made (see
  // PairedDocument), observed and ended.
  paired("paired: observeGraph + invalidate, 1000 objects ÷ 100 objects", operations: 20, rounds: 100) {
    Pair(reference: observingGraphs(of: PairedDocument(items: 99)), ours: observingGraphs(of: PairedDocument(items: 999)))
  }

  // What the app wrote by hand: an observation of each key of
  // each object (the document's title and items, each item's text, done
  // flag and count), made and ended.
  paired("paired: observeGraph + invalidate, 100 objects ÷ observe + invalidate of each of their keys", operations: 20, rounds: 100) {
    let document = PairedDocument(items: 99)
    return Pair(
      reference: kept(document) { _ in
        var tokens = [
          document.observe(\.title, options: [.old, .new]) { _, _ in },
          document.observe(\.items, options: [.old, .new]) { _, _ in },
        ]
        for item in document.items {
          tokens.append(item.observe(\.text, options: [.old, .new]) { _, _ in })
          tokens.append(item.observe(\.done, options: [.old, .new]) { _, _ in })
          tokens.append(item.observe(\.count, options: [.old, .new]) { _, _ in })
        }
        for token in tokens { token.invalidate() }
        blackHole(tokens)
      },
      ours: observingGraphs(of: document)
    )
  }
}

/// Recording an undo step for a setting (issue 65), against the write with
/// one observer a user would otherwise make to record it by hand. The
/// stack is made on no actor, as these rows run: each change it hears is a
/// step of its own; and a group around each write, as an app on an actor
/// names one command's step. The steps are kept (`levelsOfUndo` 0, the
/// default), as an app's are.
func undoBenchmarks() {
  paired("paired: recording an undo step for a setting ÷ write, 1 observer", operations: 2_000) {
    let document = PairedDocument(items: 99)
    let undo = KeyValueUndoStack()
    let recording = undo.record(document)
    let item = document.items[50]
    return Pair(reference: observedWrites(observers: 1), ours: kept((recording, undo, document)) { index in item.count = index })
  }

  paired("paired: recording an undo step for a setting, in a group ÷ write, 1 observer", operations: 2_000) {
    let document = PairedDocument(items: 99)
    let undo = KeyValueUndoStack()
    let recording = undo.record(document)
    let item = document.items[50]
    return Pair(
      reference: observedWrites(observers: 1),
      ours: kept((recording, undo, document)) { index in undo.group { item.count = index } }
    )
  }
}

/// `count` graphs observed from `document` and ended.
private func observingGraphs(of document: PairedDocument) -> (Int) -> Void {
  kept(document) { _ in
    let token = document.observeGraph { _ in }
    token.invalidate()
    blackHole(token)
  }
}

/// `count` runs of `operation`, keeping `kept` alive.
private func kept(_ kept: Any, _ operation: @escaping (Int) -> Void) -> (Int) -> Void {
  { count in
    withExtendedLifetime(kept) {
      for index in 0..<count {
        operation(index)
      }
    }
  }
}
