public import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension KeyValueObservable where Self: Observable {
  /// Reports `event` of the property at `slot` to Swift Observation, for a
  /// class that is `Observable` without saying so itself: through a
  /// protocol that refines it (`protocol Model: Observable {}`, then
  /// `@KeyValueObservable final class Sheet: Model`). The macro sees only
  /// the class's own declaration, so it gives such a class no registrar
  /// and no member of its own; the compiler, which sees the conformance,
  /// picks this one instead. The registrar lives in the object's
  /// observation storage, made on the first report (the first tracked
  /// read); the event goes to it as any tracked class's does, through the
  /// class's key table.
  ///
  /// A class that declares `Observable` itself has a registrar of its own,
  /// which the member the macro writes reports to.
  ///
  /// Not API.
  ///
  /// ```swift
  /// protocol Model: Observable {}
  /// @KeyValueObservable final class Sheet: Model { var title = "" }
  /// withObservationTracking { _ = sheet.title } onChange: { print("changed") }
  /// sheet.title = "x"  // prints "changed"
  /// ```
  public func _$kvoObservationEvent(_ event: _KeyValueObservationEvent, slot: Int) {
    let registrar = _$kvoStorage().observationRegistrar()
    registrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys)
  }
}

extension _KeyValueObservationStorage {
  /// Swift Observation's registrar for the object, made on first use: for
  /// a class `Observable` through a protocol, which has none of its own.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  func observationRegistrar() -> ObservationRegistrar {
    withState { state, _ in
      if let made = state.table.rare.observationRegistrar as? ObservationRegistrar { return made }
      let made = ObservationRegistrar()
      state.table.rare.observationRegistrar = made
      return made
    }
  }
}
