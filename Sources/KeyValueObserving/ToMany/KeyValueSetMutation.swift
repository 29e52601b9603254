/// How a `Set` property changes, as Apple's `NSKeyValueSetMutationKind`
/// names the four ways: add some objects, take some away, keep only some,
/// or replace the whole set.
///
/// Announce one by hand with
/// ``KeyValueObservable/withChange(_:using:for:_:)`` (or the
/// ``KeyValueObservable/willChange(_:using:for:)`` /
/// ``KeyValueObservable/didChange(_:using:for:)`` pair);
/// ``KeyValueMutableSet`` announces its own. Observers receive what Apple
/// sends:
///
/// | mutation | notification |
/// |---|---|
/// | `.union` | `.insertion`, new = the given objects that were not in the set |
/// | `.minus` | `.removal`, old = the given objects that were in the set |
/// | `.intersect` | `.removal`, old = the elements not among the given objects |
/// | `.set` | `.replacement`, old = the elements removed, new = the elements added |
///
/// ```swift
/// team.withChange(.union, using: [7, 8], for: \.memberIDs) {
///     team.memberIDs.formUnion([7, 8])
/// }   // observers: .insertion, new = the ids that were not members yet
/// ```
public enum KeyValueSetMutation: Sendable, Hashable {
  /// Adds the given objects (`unionSet:`).
  case union
  /// Removes the given objects (`minusSet:`).
  case minus
  /// Keeps only the given objects (`intersectSet:`).
  case intersect
  /// Replaces the set with the given objects (`setSet:`).
  case set

  /// The kind of change observers receive.
  var changeKind: KeyValueChange {
    switch self {
    case .union: .insertion
    case .minus, .intersect: .removal
    case .set: .replacement
    }
  }

  /// What the mutation takes out of `current` and puts in, given `objects`.
  func effect<Element>(on current: Set<Element>, using objects: Set<Element>) -> (dropped: Set<Element>, added: Set<Element>) {
    switch self {
    case .union: ([], objects.subtracting(current))
    case .minus: (objects.intersection(current), [])
    case .intersect: (current.subtracting(objects), [])
    case .set: (current.subtracting(objects), objects.subtracting(current))
    }
  }
}
