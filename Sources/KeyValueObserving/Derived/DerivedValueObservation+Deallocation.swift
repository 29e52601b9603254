// An object on a derived observation's path freed (see
// `KeyValueObservingOptions.deallocation`): a change no setter makes, heard
// from the freed object's storage as it closes. One path for every kind of
// derived observation (see `DerivedValueObservation`).

extension DerivedValueObservation {
  /// The object of `sender`, a registration with a key the value depends
  /// on, was freed: reads the value again (`nil` past a freed `weak`
  /// link), re-registers with what it reads now, and notifies once, with
  /// the value kept from the last read as the old one, as a did would. A
  /// tracked closure that defers its runs asks for one.
  ///
  /// Once per freed object: the read drops every registration with it,
  /// so that those told after the first find themselves no longer
  /// registered. A change of this observation open on this thread — the
  /// freed object was let go of by a setter it observes — is the change:
  /// its did reads the value again.
  @inlinable
  func dependencyFreed(from sender: _KeyValueRegistration) {
    guard !isEnded, isRegistered(sender), openChange() == nil else { return }
    switch whenToRun() {
    case .never: return
    case .later:
      scheduleRun()
      return
    case .now: break
    }
    guard let root = liveRoot else { return }
    let oldValue = options.contains(.old) ? keptValue?.value : nil
    if options.contains(.prior) {
      deliver(KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: oldValue, isPrior: true), from: root)
    }
    let newValue = refresh(root)
    keptValue?.keep(newValue)
    guard !isEnded else { return }
    deliver(
      KeyValueObservedChange(kind: .setting, newValue: newValue, oldValue: oldValue, isPrior: false, trimmedTo: options),
      from: root
    )
  }
}
