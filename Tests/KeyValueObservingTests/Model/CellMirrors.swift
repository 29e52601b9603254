import KeyValueObserving
import Testing

/// A cell's to-many keys, `items` and `ids`, copied from their change
/// records alone (``ReplayingMirror``), as a client that trusts the records
/// keeps a table's rows: after every operation of a model-based sequence —
/// nested changes made in callbacks, folds, manual mutations included —
/// each copy must equal the key.
///
/// Its registrations are made before any of the sequence's, so that each
/// change's did record reaches the copies before any callback of the
/// sequence can make a change of its own.
final class CellMirrors {
  private var items: ReplayingMirror<[Int]>
  private var ids: ReplayingMirror<Set<Int>>
  private var tokens: [KeyValueObservation] = []

  init(of cell: Cell) {
    items = ReplayingMirror(cell.items)
    ids = ReplayingMirror(cell.ids)
    tokens = [
      cell.observe(\.items, options: [.old, .new]) { [unowned self] _, change in items.apply(change) },
      cell.observe(\.ids, options: [.old, .new]) { [unowned self] _, change in ids.apply(change) },
    ]
  }

  /// Where a copy differs from `cell`, what differs; `nil` when both equal.
  func difference(from cell: Cell, named name: String) -> String? {
    if items.value != cell.items {
      return "\(name).items is \(cell.items), but replaying its records gives \(items.value)"
    }
    if ids.value != cell.ids {
      return "\(name).ids is \(cell.ids.sorted()), but replaying its records gives \(ids.value.sorted())"
    }
    return nil
  }

  deinit {
    for token in tokens { token.invalidate() }
  }
}
