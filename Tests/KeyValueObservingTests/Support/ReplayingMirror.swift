import KeyValueObserving
import Testing

/// A copy of an observed collection kept up to date from the change records
/// alone, as a client that trusts them would keep it (a table's rows, a
/// cache): each did record is applied to it, prior records change nothing.
/// After every change it must equal the collection itself; where it does
/// not, a record did not say what happened.
///
/// What a record means, applied:
/// - `.setting`: the new value is the whole collection.
/// - `.insertion` (arrays): the new elements go to the positions `indexes`
///   names in the array after the change, lowest first.
/// - `.removal` (arrays): the elements at `indexes`, positions in the array
///   before the change, go.
/// - `.replacement` (arrays): the elements at `indexes` become the new ones.
/// - For a set, an insertion adds the new elements, a removal takes the old
///   ones away, a replacement does both.
///
/// A record that lacks what applying it needs (a setting or an insertion
/// without its new value: observe with `[.old, .new]`), or whose indexes
/// lie outside the mirror, is recorded as an issue and leaves the mirror
/// as it was.
struct ReplayingMirror<Value> {
  private(set) var value: Value

  init(_ value: Value) {
    self.value = value
  }

  private func fail(_ problem: String, _ record: Any, sourceLocation: SourceLocation) {
    Issue.record("cannot replay \(record): \(problem)", sourceLocation: sourceLocation)
  }
}

extension ReplayingMirror {
  /// Applies `change`, a record of an array.
  mutating func apply<Element>(
    _ change: KeyValueObservedChange<[Element]>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) where Value == [Element] {
    guard !change.isPrior else { return }
    applyToArray(
      change.kind,
      indexRanges: change.indexes?.ranges,
      old: change.oldValue,
      new: change.newValue,
      record: change,
      sourceLocation: sourceLocation
    )
  }

  /// Applies `change`, a record of an array as a classic observer receives
  /// it.
  mutating func apply<Element>(
    _ change: [KeyValueChangeKey: Any],
    sourceLocation: SourceLocation = #_sourceLocation
  ) where Value == [Element] {
    guard change[.notificationIsPrior] as? Bool != true else { return }
    guard let kind = change[.kind] as? KeyValueChange else {
      return fail("no kind", change, sourceLocation: sourceLocation)
    }
    let ranges = (change[.indexes] as? KeyValueIndexSet)?.ranges
    applyToArray(
      kind,
      indexRanges: ranges,
      old: change[.old] as? [Element],
      new: change[.new] as? [Element],
      record: change,
      sourceLocation: sourceLocation
    )
  }

  private mutating func applyToArray<Element>(
    _ kind: KeyValueChange,
    indexRanges: [Range<Int>]?,
    old: [Element]?,
    new: [Element]?,
    record: Any,
    sourceLocation: SourceLocation
  ) where Value == [Element] {
    if kind == .setting {
      guard let new else { return fail("a setting without its new value", record, sourceLocation: sourceLocation) }
      value = new
      return
    }
    guard let indexRanges else { return fail("a to-many change without indexes", record, sourceLocation: sourceLocation) }
    let positions = indexRanges.sorted { $0.lowerBound < $1.lowerBound }.flatMap { Array($0) }
    var array = value
    switch kind {
    case .setting:
      break
    case .insertion:
      guard let new, new.count == positions.count else {
        return fail("an insertion without one new element per index", record, sourceLocation: sourceLocation)
      }
      for (position, element) in zip(positions, new) {
        guard position <= array.count else {
          return fail("index \(position) past the end of \(array.count)", record, sourceLocation: sourceLocation)
        }
        array.insert(element, at: position)
      }
    case .removal:
      for position in positions.reversed() {
        guard position < array.count else {
          return fail("index \(position) past the end of \(array.count)", record, sourceLocation: sourceLocation)
        }
        array.remove(at: position)
      }
    case .replacement:
      guard let new, new.count == positions.count else {
        return fail("a replacement without one new element per index", record, sourceLocation: sourceLocation)
      }
      for (position, element) in zip(positions, new) {
        guard position < array.count else {
          return fail("index \(position) past the end of \(array.count)", record, sourceLocation: sourceLocation)
        }
        array[position] = element
      }
    }
    value = array
  }

  /// Applies `change`, a record of a set.
  mutating func apply<Element>(
    _ change: KeyValueObservedChange<Set<Element>>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) where Value == Set<Element> {
    guard !change.isPrior else { return }
    switch change.kind {
    case .setting:
      guard let new = change.newValue else {
        return fail("a setting without its new value", change, sourceLocation: sourceLocation)
      }
      value = new
    case .insertion, .removal, .replacement:
      let removes = change.kind != .insertion
      let inserts = change.kind != .removal
      if removes && change.oldValue == nil || inserts && change.newValue == nil {
        return fail("a \(change.kind) without the elements it moves", change, sourceLocation: sourceLocation)
      }
      if removes { value.subtract(change.oldValue!) }
      if inserts { value.formUnion(change.newValue!) }
    }
  }
}
