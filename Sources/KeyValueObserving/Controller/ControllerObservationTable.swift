/// The observations of one ``KVOController``, filed by object and key so
/// that observing and unobserving cost O(1) amortised whatever their
/// number, and numbered in the order they were made, for
/// ``KVOController/debugDescription``.
///
/// A plain value, kept under the controller's lock: every method runs
/// inside it and only files and unfiles; what was taken out is handed back
/// for the controller to end after the lock.
struct ControllerObservationTable {
  private var byObject: [ObjectIdentifier: [AnyHashable: ControllerObservation]] = [:]
  private var nextSerial = 0

  /// Observations taken out whose end is under way on some thread: an
  /// `unobserve` of the same key meanwhile waits for their running blocks
  /// as well, as the call ending them does.
  private var ending: [ControllerObservation] = []

  /// How many observations are filed.
  private(set) var count = 0

  /// ``count`` after the last sweep of freed objects, so that sweeps come
  /// when the number has doubled: amortised O(1) per observation.
  private var countAtLastSweep = 0

  /// Files `observation` of `object`, unless the object already has one of
  /// that key. An observation filed under the same identity for a freed
  /// object whose address `object` now has is taken out and returned, to be
  /// ended.
  mutating func file(
    _ observation: ControllerObservation,
    of object: AnyObject
  ) -> (added: Bool, stale: ControllerObservation?) {
    let id = ObjectIdentifier(object)
    var stale: ControllerObservation?
    if let existing = byObject[id]?[observation.key] {
      guard !existing.refers(to: object) else { return (false, nil) }
      stale = existing
      count -= 1
    }
    observation.serial = nextSerial
    nextSerial += 1
    byObject[id, default: [:]][observation.key] = observation
    count += 1
    return (true, stale)
  }

  /// Whether `observation` is filed.
  func contains(_ observation: ControllerObservation) -> Bool {
    byObject[observation.objectID]?[observation.key] === observation
  }

  /// Takes out `observation`, if it is filed.
  mutating func remove(_ observation: ControllerObservation) -> [ControllerObservation] {
    guard contains(observation) else { return [] }
    return take(observation.objectID, key: observation.key)
  }

  /// Takes out the observation of `key` on `object`.
  mutating func remove(of object: AnyObject, key: AnyHashable) -> [ControllerObservation] {
    guard let existing = byObject[ObjectIdentifier(object)]?[key], existing.refers(to: object) else { return [] }
    return take(existing.objectID, key: key)
  }

  /// Takes out every observation filed under `object`'s identity.
  mutating func removeAll(of object: AnyObject) -> [ControllerObservation] {
    guard let filed = byObject.removeValue(forKey: ObjectIdentifier(object)) else { return [] }
    count -= filed.count
    return Array(filed.values)
  }

  /// Takes out every observation.
  mutating func removeAll() -> [ControllerObservation] {
    defer {
      byObject = [:]
      count = 0
    }
    return byObject.values.flatMap(\.values)
  }

  /// Files `observations`, just taken out, as being ended.
  mutating func beginEnding(_ observations: [ControllerObservation]) {
    ending += observations
  }

  /// Unfiles `observations` once their end is made.
  mutating func finishEnding(_ observations: [ControllerObservation]) {
    ending.removeAll { filed in observations.contains { $0 === filed } }
  }

  /// The observations being ended that an `unobserve` of `key` on the
  /// object whose identity is `id` names (every key when `key` is `nil`;
  /// every object when `id` is `nil`). Matched by identity alone: reading
  /// an observation's object here would make a reference whose release
  /// could run a deinit under the lock.
  func ending(of id: ObjectIdentifier?, key: AnyHashable?) -> [ControllerObservation] {
    ending.filter { observation in
      (id == nil || observation.objectID == id) && (key == nil || observation.key == key)
    }
  }

  /// Every observation, in the order they were made.
  var all: [ControllerObservation] {
    byObject.values.flatMap(\.values).sorted { $0.serial < $1.serial }
  }

  /// Every observation when enough were filed since the last sweep that a
  /// sweep for freed objects is due (their number has doubled); `nil`
  /// otherwise. Marks the sweep as done.
  mutating func dueForSweep() -> [ControllerObservation]? {
    guard count >= 2 * max(countAtLastSweep, 8) else { return nil }
    countAtLastSweep = count
    return byObject.values.flatMap(\.values)
  }

  private mutating func take(_ id: ObjectIdentifier, key: AnyHashable) -> [ControllerObservation] {
    guard let removed = byObject[id]?.removeValue(forKey: key) else { return [] }
    if byObject[id]?.isEmpty == true { byObject[id] = nil }
    count -= 1
    return [removed]
  }
}
