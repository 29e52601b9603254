/// Every name the expansions write, in one place.
enum Names {
  static let module = "KeyValueObserving"
  static let protocolName = "KeyValueObservable"
  static let qualifiedProtocol = "\(module).\(protocolName)"
  static let registrarType = "\(module)._KeyValueObservationRegistrar"
  static let storageType = "\(module)._KeyValueObservationStorage"
  static let tracking = "\(module)._KeyValueAccessTracking"
  static let keyTableType = "\(module)._KeyValueKeyTable"
  static let observableProtocol = "Observable"
  static let observationModule = "Observation"
  static let observationEventType = "\(module)._KeyValueObservationEvent"
  static let observationRegistrarType = "Observation.ObservationRegistrar"

  static let ignoredAttribute = "KeyValueIgnored"
  static let propertyAttribute = "_KeyValueObservableProperty"

  static let registrar = "_$kvoRegistrar"
  static let observedStorage = "_$kvoObservedStorage"
  static let makeStorage = "_$kvoStorage"
  static let keyCount = "_$kvoKeyCount"
  static let slotForKeyPath = "_$kvoSlot"
  static let keyPathForSlot = "_$kvoKeyPath"
  static let keys = "_$kvoKeys"
  static let observationRegistrar = "_$kvoObservationRegistrar"
  static let observationEvent = "_$kvoObservationEvent"
  static let observationReport = "_$kvoReport"
  /// What a getter and a setter call: the forms for any class, overloaded
  /// for one that is `Observable` without the macro seeing it, and the
  /// forms for a class that declares `Observable`.
  static let access = "access"
  static let trackedAccess = "trackedAccess"
  static let notifyingSet = "_notifyingSet"
  static let notifyingTrackedSet = "_notifyingTrackedSet"
  static let storageLocal = "_$kvoObserved"
  /// What an `encode(to:)` the macro writes calls, and its container.
  static let encoding = "\(module)._KeyValueEncoding"
  static let encodingContainer = "_$kvoContainer"
  static let modifyLocal = "_$kvoValue"

  /// The per-class static holding the first slot of the class's own keys.
  /// Named after the class so that a subclass's never collides with its
  /// superclass's.
  static func firstSlot(ofClass className: String) -> String {
    "_$kvoFirstSlot_\(unquoted(className))"
  }

  /// The static constant holding the class's key table, named after the
  /// class as ``firstSlot(ofClass:)`` is.
  static func keyTable(ofClass className: String) -> String {
    "_$kvoKeys_\(unquoted(className))"
  }

  /// A name without the backticks a keyword needs (`` `Type` ``), which
  /// a name made from it cannot hold.
  static func unquoted(_ name: String) -> String {
    name.filter { $0 != "`" }
  }

  /// The methods a class that declares `Observable` may write to intercept
  /// tracked reads and writes, as `@Observable` calls them.
  static let accessHook = "access"
  static let mutationHook = "withMutation"

  /// A mutation as Observation sees it, and the runtime's form of it as a
  /// will and a did.
  static let observedMutation = "_$kvoObservedMutation"
  static let mutationAsEvents = "_$kvoMutationAsEvents"

  /// The runtime's protocol that opens a key path to its types.
  static let typedKeyPath = "KeyValueObserving._KeyValueTypedKeyPath"

  /// The backing storage of an observable property.
  static func storage(of property: String) -> String {
    "_\(property)"
  }
}
