// Classic observers' registrations, filed for `removeObserver`.

extension _KeyValueObservationStorage {
  /// Files the classic observer `target` with the registration made for
  /// it, so that `removeObserver` can find it; `false` once the object has
  /// deinitialised.
  func recordClassic(_ target: ClassicObserverTarget, registration: _KeyValueRegistration) -> Bool {
    withState { state, _ in
      guard !isClosed else { return false }
      state.table.rare.classic.append(target, registration: registration)
      return true
    }
  }

  /// Removes the most recent classic registration of the observer
  /// `observer` whose target `matches`, and its registration; returns
  /// whether there was one. `matches` runs under the lock: it must not call
  /// out.
  func removeClassic(of observer: ObjectIdentifier, where matches: (ClassicObserverTarget) -> Bool) -> Bool {
    let (removed, released) = mutating { state, slots, busy, replaced -> Unmanaged<_KeyValueRegistration>? in
      guard !isClosed, let registration = state.table.rareIfMade?.classic.removeLast(of: observer, where: matches) else {
        return nil
      }
      return detach(.passUnretained(registration), from: &state, slots, busy: busy, replaced: &replaced)
    }
    _ = released
    return ended(removed)
  }

  /// The classic observers registered now, when a sweep for freed ones is
  /// due (see ``ClassicRegistrations/dueForSweep()``); `nil` otherwise.
  func classicTargetsDueForSweep() -> [ClassicObserverTarget]? {
    withState { state, _ in state.table.rareIfMade?.classic.dueForSweep() }
  }
}
