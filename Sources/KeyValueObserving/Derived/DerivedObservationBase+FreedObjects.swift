// What a derived observation that hears freed objects (see
// `KeyValueObservingOptions.deallocation`) adds to its reads: the objects
// the keys it read hold, watched for their lifetime, and the report of
// those it cannot hear.

extension DerivedObservationBase {
  /// Whether the observation hears the objects it depends on freed (see
  /// ``KeyValueObservingOptions/deallocation``).
  @usableFromInline
  final var hearsDeallocation: Bool { options.contains(.deallocation) }

  /// For an observation that hears freed objects: the objects the keys in
  /// `reads` hold, whose own keys were not read — `item` of `item != nil`
  /// — are depended on for their lifetime (see ``ObjectLifetime``), added
  /// to `keys`; an object whose keys were read is heard freed through
  /// them. Returns whether any key read holds such an object, or `nil`,
  /// or an object of a class that is not `@KeyValueObservable`, which is
  /// reported.
  func watchHeldObjects(of reads: [TrackedAccess], into keys: inout [ReadKey]) -> Bool {
    // Its reads are not those of a tracked closure running outside.
    let hidden = _KeyValueAccessTracking.suspendTracking()
    defer { _KeyValueAccessTracking.resumeTracking(hidden) }
    var holdsUnread = false
    for access in reads {
      guard let object = access.readObject as? any KeyValueObservable,
        let keyPath = access.storage.objectType._$kvoKeyPath(forSlot: access.slot),
        ObjectLifetime.mayHoldObject(type(of: keyPath).valueType)
      else { continue }
      guard let held = flattened(object[keyPath: keyPath]) else {
        holdsUnread = true
        continue
      }
      guard type(of: held) is AnyObject.Type else { continue }
      guard let observable = held as? any KeyValueObservable else {
        holdsUnread = true
        reportUnheardDeallocation(of: type(of: held))
        continue
      }
      let storage = observable._$kvoStorage()
      guard !reads.contains(where: { $0.storage === storage }) else { continue }
      holdsUnread = true
      keys.append(ReadKey(object: observable, keyPath: ObjectLifetime.keyPath, isObservedKey: false))
    }
    return holdsUnread
  }

  /// Reports, once, that an object of `unheard`, a class that is not
  /// `@KeyValueObservable`, is on the path of this observation, which
  /// hears freed objects: nothing tells when it is freed. Not for a
  /// binding, which hears freed objects without being asked.
  final func reportUnheardDeallocation(of unheard: Any.Type) {
    if case .binding = observerSource { return }
    guard !unheardReported.exchange(true, ordering: .relaxed) else { return }
    let what =
      observedStorage.map { "\(keyPathDescription) on \($0.objectType)" }
      ?? "withKeyValueObservation at \(site.description ?? "a call")"
    reportProblem(
      .unheardDeallocation,
      "observing \(what) with .deallocation: \(unheard) is not @KeyValueObservable, so nothing tells when an "
        + "object of it on the path is freed, and a weak link to one turns nil unheard; "
        + MarkableClass.advice(
          for: unheard, mark: "mark \(unheard) @KeyValueObservable",
          otherwise: "hold it strongly, or through a @KeyValueObservable class of yours that holds it, "
            + "or observe without .deallocation"
        )
    )
  }
}
