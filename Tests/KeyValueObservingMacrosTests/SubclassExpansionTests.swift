import MacroTesting
import Testing

/// A subclass of an observable class: its keys follow its superclass's.
@Suite(.macros(subclassMacros, record: .missing))
struct SubclassExpansionTests {
  @Test("a subclass of an observable class adds its keys after its superclass's and reuses its registrar")
  func subclass() {
    assertMacro {
      """
      @KeyValueObservable
      class Truck: Vehicle {
        var payload = 0.0
      }
      """
    } expansion: {
      #"""
      class Truck: Vehicle {
        var payload {
          @storageRestrictions(initializes: _payload)
          init(initialValue) {
            _payload = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Truck + 0)
            return _payload
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _payload = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Truck + 0, to: newValue, hasOverridableGetter: true, get: { $0.payload }, set: { $0._payload = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Truck + 0) else {
              yield &_payload
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Truck + 0) else {
              var _$kvoValue = _payload
              defer { _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Truck + 0, to: _$kvoValue, hasOverridableGetter: true, get: { $0.payload }, set: { $0._payload = $1 }) }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Truck + 0) }
            yield &_payload
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _payload = 0.0

        private nonisolated static var _$kvoFirstSlot_Truck: Swift.Int { super._$kvoKeyCount }

        nonisolated override class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Truck + 1 }

        nonisolated override class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Truck }

        private nonisolated static let _$kvoKeys_Truck = KeyValueObserving._KeyValueKeyTable(Truck.self, after: Vehicle._$kvoKeys) {
          if case (\Truck.payload, \Truck?.?.payload) = $0.stored("payload", get: { Swift.unsafeDowncast($0, to: Truck.self)._payload }, modify: { $0(&Swift.unsafeDowncast($1, to: Truck.self)._payload) }) {}
        }

        nonisolated override class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          _$kvoKeys_Truck.slot(for: keyPath, in: Self.self) {
            func slot<Root: Truck>(in _: Root.Type) -> Swift.Int? {
              switch keyPath {
              case \Root.payload: return _$kvoFirstSlot_Truck + 0
              default: return nil
              }
            }
            return slot(in: Self.self)
          } ?? super._$kvoSlot(for: keyPath)
        }
      }
      """#
    }
  }

  @Test("overriding properties are left alone: the superclass's setter, which they call, notifies")
  func overrides() {
    assertMacro {
      """
      @KeyValueObservable
      final class ClampedDial: Dial {
        override var level: Int {
          didSet { if level > 10 { level = 10 } }
        }
        override var label: String {
          get { super.label.uppercased() }
          set { super.label = newValue }
        }
      }
      """
    } expansion: {
      #"""
      final class ClampedDial: Dial {
        override var level: Int {
          didSet { if level > 10 { level = 10 } }
        }
        override var label: String {
          get { super.label.uppercased() }
          set { super.label = newValue }
        }

        private nonisolated static var _$kvoFirstSlot_ClampedDial: Swift.Int { super._$kvoKeyCount }

        nonisolated override class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_ClampedDial + 0 }

        nonisolated override class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_ClampedDial }

        private nonisolated static let _$kvoKeys_ClampedDial = KeyValueObserving._KeyValueKeyTable(ClampedDial.self, after: Dial._$kvoKeys) {
          if case \ClampedDial.level = $0.other("level") {}
          if case \ClampedDial.label = $0.other("label") {}
          $0.overrides("level", "label")
        }

        nonisolated override class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          _$kvoKeys_ClampedDial.slot(for: keyPath, in: Self.self) { nil } ?? super._$kvoSlot(for: keyPath)
        }
      }
      """#
    }
  }
}
