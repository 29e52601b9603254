import MacroTesting
import Testing

/// A class that also declares `Observable`: what Swift Observation is told.
@Suite(.macros(rootClassMacros, record: .missing))
struct ObservationExpansionTests {
  @Test("a class that declares Observable gets a registrar and a one-line event member; its accessors call the tracked forms")
  func declaresObservable() {
    assertMacro {
      """
      @KeyValueObservable
      final class Sheet: Observable {
        var title = ""
        var count = 0
      }
      """
    } expansion: {
      #"""
      final class Sheet: Observable {
        var title {
          @storageRestrictions(initializes: _title)
          init(initialValue) {
            _title = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Sheet + 0)
            return _title
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _title = newValue
              return
            }
            _$kvoObserved._notifyingTrackedSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, reportingTo: _$kvoObservationRegistrar, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) else {
              var _$kvoValue = _title
              defer { self.title = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) }
            yield &_title
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _title = ""
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Sheet + 1)
            return _count
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _count = newValue
              return
            }
            _$kvoObserved._notifyingTrackedSet(self, slot: Self._$kvoFirstSlot_Sheet + 1, reportingTo: _$kvoObservationRegistrar, to: newValue, get: { $0._count }, set: { $0._count = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 1) else {
              yield &_count
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 1) else {
              var _$kvoValue = _count
              defer { self.count = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 1) }
            yield &_count
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _count = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storageMadeOnFirstUse(for: self) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 2 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Sheet }

        private nonisolated static let _$kvoKeys_Sheet = KeyValueObserving._KeyValueKeyTable(Sheet.self) {
          if case (\Sheet.title, \Sheet?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
          if case (\Sheet.count, \Sheet?.?.count) = $0.stored("count", get: { Swift.unsafeDowncast($0, to: Sheet.self)._count }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._count) }) {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) { _$kvoObservationRegistrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys_Sheet) }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a class with its own access(keyPath:) and withMutation(keyPath:_:) reports through them")
  func declaresObservationHooks() {
    assertMacro {
      """
      @KeyValueObservable
      final class Sheet: Observable {
        var title = ""
        func access<Member>(keyPath: KeyPath<Sheet, Member>) {
          _$kvoObservationRegistrar.access(self, keyPath: keyPath)
        }
        func withMutation<Member, T>(keyPath: KeyPath<Sheet, Member>, _ mutation: () throws -> T) rethrows -> T {
          try _$kvoObservationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }
      """
    } expansion: {
      #"""
      final class Sheet: Observable {
        var title {
          @storageRestrictions(initializes: _title)
          init(initialValue) {
            _title = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Sheet + 0)
            return _title
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _title = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) else {
              var _$kvoValue = _title
              defer { self.title = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) }
            yield &_title
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _title = ""
        func access<Member>(keyPath: KeyPath<Sheet, Member>) {
          _$kvoObservationRegistrar.access(self, keyPath: keyPath)
        }
        func withMutation<Member, T>(keyPath: KeyPath<Sheet, Member>, _ mutation: () throws -> T) rethrows -> T {
          try _$kvoObservationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storageMadeOnFirstUse(for: self) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Sheet }

        private nonisolated static let _$kvoKeys_Sheet = KeyValueObserving._KeyValueKeyTable(Sheet.self) {
          if case (\Sheet.title, \Sheet?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          guard case .access = event, let keyPath = type(of: self)._$kvoKeyPath(forSlot: slot) as? any KeyValueObserving._KeyValueTypedKeyPath<Sheet> else {
            return _$kvoObservationRegistrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys_Sheet)
          }
          func report(_ keyPath: some KeyValueObserving._KeyValueTypedKeyPath<Sheet>) { access(keyPath: keyPath._$kvoTyped) }
          report(keyPath)
        }

        nonisolated final func _$kvoObservedMutation<Result>(ofSlot slot: Swift.Int, _ mutation: () -> Result) -> Result {
          guard let keyPath = type(of: self)._$kvoKeyPath(forSlot: slot) as? any KeyValueObserving._KeyValueTypedKeyPath<Sheet> else {
            return _$kvoMutationAsEvents(ofSlot: slot, mutation)
          }
          func mutate(_ keyPath: some KeyValueObserving._KeyValueTypedKeyPath<Sheet>) -> Result { withMutation(keyPath: keyPath._$kvoTyped, mutation) }
          return mutate(keyPath)
        }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a main-actor class that declares Observable reports as any other, a property with observers included")
  func mainActorDeclaresObservable() {
    assertMacro {
      """
      @MainActor @KeyValueObservable
      final class Screen: Observation.Observable {
        var headline = ""
        var zoom = 1 {
          didSet { if zoom < 1 { zoom = 1 } }
        }
      }
      """
    } expansion: {
      #"""
      @MainActor
      final class Screen: Observation.Observable {
        var headline {
          @storageRestrictions(initializes: _headline)
          init(initialValue) {
            _headline = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Screen + 0)
            return _headline
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _headline = newValue
              return
            }
            _$kvoObserved._notifyingTrackedSet(self, slot: Self._$kvoFirstSlot_Screen + 0, reportingTo: _$kvoObservationRegistrar, to: newValue, get: { $0._headline }, set: { $0._headline = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Screen + 0) else {
              yield &_headline
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 0) else {
              var _$kvoValue = _headline
              defer { self.headline = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 0) }
            yield &_headline
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _headline = ""
        var zoom {
          didSet { if zoom < 1 { zoom = 1 } }
            @storageRestrictions(initializes: _zoom)
            init(initialValue) {
              _zoom = initialValue
            }


            get {
              KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Screen + 1)
              return _zoom
            }


            set {
              guard let _$kvoObserved = self._$kvoObservedStorage else {
                _zoom = newValue
                return
              }
              _$kvoObserved._notifyingTrackedSet(self, slot: Self._$kvoFirstSlot_Screen + 1, reportingTo: _$kvoObservationRegistrar, to: newValue, hasPropertyObservers: true, get: { $0._zoom }, set: { $0._zoom = $1 })
            }


            _modify {
              guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Screen + 1) else {
                yield &_zoom
                return
              }
              guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 1) else {
                var _$kvoValue = _zoom
                defer { self.zoom = _$kvoValue }
                yield &_$kvoValue
                return
              }
              defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 1) }
              yield &_zoom
            }
        }

        @exclusivity(unchecked) private final var _zoom = 1 {
            didSet {
                if zoom < 1 {
                    zoom = 1
                }
            }
          }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storageMadeOnFirstUse(for: self) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Screen: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Screen + 2 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Screen }

        private nonisolated static let _$kvoKeys_Screen = KeyValueObserving._KeyValueKeyTable(Screen.self) {
          if case (\Screen.headline, \Screen?.?.headline) = $0.stored("headline", get: { Swift.unsafeDowncast($0, to: Screen.self)._headline }, modify: { $0(&Swift.unsafeDowncast($1, to: Screen.self)._headline) }) {}
          if case (\Screen.zoom, \Screen?.?.zoom, \Screen._zoom) = $0.stored("zoom") {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) { _$kvoObservationRegistrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys_Screen) }

        final func value(forKey key: Swift.String) throws(KeyValueObserving.KeyValueCodingError) -> Any? {
          try KeyValueObserving._KeyValueIsolatedStringKeys.value(forKey: key, on: self)
        }

        final func value(forKeyPath keyPath: Swift.String) throws(KeyValueObserving.KeyValueCodingError) -> Any? {
          try KeyValueObserving._KeyValueIsolatedStringKeys.value(forKeyPath: keyPath, on: self)
        }

        final func setValue(_ value: Any?, forKey key: Swift.String) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.setValue(value, forKey: key, on: self)
        }

        final func setValue(_ value: Any?, forKeyPath keyPath: Swift.String) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.setValue(value, forKeyPath: keyPath, on: self)
        }

        final func willChangeValue(forKey key: Swift.String) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.willChangeValue(forKey: key, on: self)
        }

        final func didChangeValue(forKey key: Swift.String) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.didChangeValue(forKey: key, on: self)
        }

        @discardableResult
        final func withChange<Result>(
          forKey key: Swift.String,
          _ body: () throws(KeyValueObserving.KeyValueCodingError) -> Result
        ) throws(KeyValueObserving.KeyValueCodingError) -> Result {
          try KeyValueObserving._KeyValueIsolatedStringKeys.withChange(forKey: key, on: self, body)
        }

        @available(*, deprecated, message: "write a throwing body '() throws(KeyValueCodingError) in' to call the typed form; handle other errors inside it")
        @_disfavoredOverload
        @discardableResult
        final func withChange<Result>(forKey key: Swift.String, _ body: () throws -> Result) throws -> Result {
          try KeyValueObserving._KeyValueIsolatedStringKeys.withChange(forKey: key, on: self, body)
        }

        final func addObserver(
          _ observer: any KeyValueObserving.KeyValueObserver,
          forKeyPath keyPath: Swift.String,
          options: KeyValueObserving.KeyValueObservingOptions = [],
          context: Swift.UnsafeMutableRawPointer? = nil,
          fileID: Swift.StaticString = #fileID,
          line: Swift.UInt = #line
        ) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.addObserver(observer, forKeyPath: keyPath, options: options, context: context, on: self, fileID: fileID, line: line)
        }
      }

      extension Screen: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
