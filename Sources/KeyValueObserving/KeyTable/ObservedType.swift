import Observation

/// What the registrar needs to know about one class of observed objects,
/// worked out once per class and shared by the storages of all its objects:
/// its key count, whether it customises notification, which of its keys
/// are notified by hand, and, for a class Swift Observation tracks, what
/// reports each key's changes to it.
///
/// Kept per class so that an object's storage holds one reference to it
/// instead of copies of it, and so that the class is asked once, not once
/// per observed object, which of its keys notify automatically.
@usableFromInline
final class ObservedType: @unchecked Sendable {
  // @unchecked Sendable: immutable; the metatypes are only used to call
  // the class's static members, which any thread may call.

  /// The class.
  let type: any KeyValueObservable.Type

  /// The class as ``KeyValueObservingCustomization``, if it is one.
  let customization: (any KeyValueObservingCustomization.Type)?

  /// How many slots its objects have.
  let keyCount: Int

  /// Whether it declares `Observable`, so that Swift Observation tracks it.
  let tracksObservation: Bool

  /// `true` at the slots whose setters do not notify, because
  /// ``KeyValueObservingCustomization/automaticallyNotifiesObservers(for:)``
  /// said so; empty when every slot notifies.
  @usableFromInline let manuallyNotifiedSlots: [Bool]

  /// What hands each slot's events to Swift Observation, for a class it
  /// tracks: the reporters of the class's key tables (its own and its
  /// superclasses'), in slot order, so that a setter finds its property's
  /// with one index; empty for any other class. Unmanaged: the tables,
  /// which live as long as the process, own them.
  let observationReporters: [Unmanaged<AnyObject>?]

  private init(_ type: any KeyValueObservable.Type) {
    self.type = type
    let customization = type as? any KeyValueObservingCustomization.Type
    self.customization = customization
    keyCount = type._$kvoKeyCount
    tracksObservation = isTrackedByObservation(type)
    var manual: [Bool] = []
    if let customization {
      for slot in 0..<keyCount {
        guard let keyPath = type._$kvoKeyPath(forSlot: slot),
          !customization.automaticallyNotifiesObservers(for: keyPath)
        else { continue }
        if manual.isEmpty { manual = Array(repeating: false, count: keyCount) }
        manual[slot] = true
      }
    }
    manuallyNotifiedSlots = manual
    observationReporters = Self.observationReporters(of: type, keyCount: keyCount, tracked: tracksObservation)
  }

  /// ``observationReporters`` of `type`.
  private static func observationReporters(
    of type: any KeyValueObservable.Type,
    keyCount: Int,
    tracked: Bool
  ) -> [Unmanaged<AnyObject>?] {
    guard tracked, #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return [] }
    let table = type._$kvoKeys
    return (0..<keyCount).map { slot in
      table.observationReporter(forSlot: slot).map { Unmanaged.fromOpaque($0.toOpaque()) }
    }
  }

  /// The reporter of `slot`, or `nil` if the class is not tracked.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  func observationReporter(forSlot slot: Int) -> Unmanaged<ObservationReporter>? {
    guard slot < observationReporters.count, let reporter = observationReporters[slot] else { return nil }
    return Unmanaged.fromOpaque(reporter.toOpaque())
  }

  private static let known = LockedState([ObjectIdentifier: ObservedType]())

  /// The description of `type`, made on its first use.
  static func of(_ type: any KeyValueObservable.Type) -> ObservedType {
    let key = ObjectIdentifier(type)
    if let known = known.withLock({ $0[key] }) { return known }
    // Made outside the lock: it asks the class, whose code may do anything.
    let made = ObservedType(type)
    return known.withLock { known in
      if let first = known[key] { return first }
      known[key] = made
      return made
    }
  }
}
