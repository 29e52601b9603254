/// The classic observers' registrations on one object, filed by observer so
/// that `removeObserver` finds its registration without scanning everyone
/// else's, and swept for freed observers only when their number has
/// doubled since the last sweep: O(1) amortised per add and remove.
///
/// A plain value, kept under the storage's lock.
struct ClassicRegistrations {
  private struct Entry {
    let target: ClassicObserverTarget
    let registration: _KeyValueRegistration
  }

  /// Each observer's registrations, in the order they were made.
  private var byObserver: [ObjectIdentifier: [Entry]] = [:]

  /// How many registrations are filed.
  private(set) var count = 0

  /// ``count`` after the last sweep.
  private var countAtLastSweep = 0

  /// Files `target`'s registration.
  mutating func append(_ target: ClassicObserverTarget, registration: _KeyValueRegistration) {
    byObserver[target.observerID, default: []].append(Entry(target: target, registration: registration))
    count += 1
  }

  /// Takes out the most recent registration of the observer `observer`
  /// whose target `matches`, and returns it. `matches` runs under the
  /// storage's lock: it must not call out.
  mutating func removeLast(
    of observer: ObjectIdentifier,
    where matches: (ClassicObserverTarget) -> Bool
  ) -> _KeyValueRegistration? {
    guard let index = byObserver[observer]?.lastIndex(where: { matches($0.target) }) else { return nil }
    let entry = byObserver[observer]!.remove(at: index)
    if byObserver[observer]!.isEmpty { byObserver[observer] = nil }
    count -= 1
    return entry.registration
  }

  /// Every target, when enough registrations were made since the last
  /// sweep that one is due (their number has doubled); `nil` otherwise.
  /// Marks the sweep as done.
  mutating func dueForSweep() -> [ClassicObserverTarget]? {
    guard count >= 2 * countAtLastSweep else { return nil }
    countAtLastSweep = count
    return byObserver.values.flatMap { $0.map(\.target) }
  }
}
