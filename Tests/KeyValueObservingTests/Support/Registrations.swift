@testable import KeyValueObserving

/// Every registration on `object`, including the ones the library makes
/// with what a derived key depends on, which `observationInfo` does not
/// list: `"key (who)"` each, in slot order.
func allRegistrations(on object: some KeyValueObservable) -> [String] {
  guard let storage = object._$kvoObservedStorage?.takeUnretainedValue() else { return [] }
  return storage.liveRegistrations().map { registration in
    let key = registration.keyDescription ?? type(of: object)._$kvoKey(forSlot: registration.slot) ?? "?"
    return "\(key) (\(registration.observerDescription))"
  }
}
