import MacroTesting
import Testing

/// How the expansion adapts to the class around it: public and open,
/// generic, isolated to the main actor.
@Suite(.macros(rootClassMacros, record: .missing))
struct ClassKindExpansionTests {
  @Test("a public non-final class: witnesses are public, overridable ones open where the class is open")
  func openClass() {
    assertMacro {
      """
      @KeyValueObservable
      open class Vehicle {
        public var wheels: Int
        public init(wheels: Int) { self.wheels = wheels }
      }
      """
    } expansion: {
      #"""
      open class Vehicle {
        public var wheels: Int {
          @storageRestrictions(initializes: _wheels)
          init(initialValue) {
            _wheels = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Vehicle + 0)
            return _wheels
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _wheels = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Vehicle + 0, to: newValue, hasOverridableGetter: true, get: { $0.wheels }, set: { $0._wheels = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Vehicle + 0) else {
              yield &_wheels
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Vehicle + 0) else {
              var _$kvoValue = _wheels
              defer { _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Vehicle + 0, to: _$kvoValue, hasOverridableGetter: true, get: { $0.wheels }, set: { $0._wheels = $1 }) }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Vehicle + 0) }
            yield &_wheels
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _wheels: Int
        public init(wheels: Int) { self.wheels = wheels }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        public nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        public nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Vehicle: Swift.Int { 0 }

        open nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Vehicle + 1 }

        open nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Vehicle }

        private nonisolated static let _$kvoKeys_Vehicle = KeyValueObserving._KeyValueKeyTable(Vehicle.self) {
          if case (\Vehicle.wheels, \Vehicle?.?.wheels) = $0.stored("wheels", get: { Swift.unsafeDowncast($0, to: Vehicle.self)._wheels }, modify: { $0(&Swift.unsafeDowncast($1, to: Vehicle.self)._wheels) }) {}
        }

        open nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          _$kvoKeys_Vehicle.slot(for: keyPath, in: Self.self) {
            func slot<Root: Vehicle>(in _: Root.Type) -> Swift.Int? {
              switch keyPath {
              case \Root.wheels: return _$kvoFirstSlot_Vehicle + 0
              default: return nil
              }
            }
            return slot(in: Self.self)
          }
        }
      }

      extension Vehicle: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a generic class constrains the key-path probe to its own generic type")
  func genericClass() {
    assertMacro {
      """
      @KeyValueObservable
      final class Box<Content, Tag: Hashable> {
        var content: Content
        init(_ content: Content) { self.content = content }
      }
      """
    } expansion: {
      #"""
      final class Box<Content, Tag: Hashable> {
        var content: Content {
          @storageRestrictions(initializes: _content)
          init(initialValue) {
            _content = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Box + 0)
            return _content
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _content = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Box + 0, to: newValue, get: { $0._content }, set: { $0._content = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Box + 0) else {
              yield &_content
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Box + 0) else {
              var _$kvoValue = _content
              defer { self.content = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Box + 0) }
            yield &_content
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _content: Content
        init(_ content: Content) { self.content = content }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Box: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Box + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable {
          KeyValueObserving._KeyValueKeyTable.shared(Box<Content, Tag>.self) {
            if case (\Box<Content, Tag>.content, \Box<Content, Tag>?.?.content) = $0.stored("content", get: { Swift.unsafeDowncast($0, to: Box<Content, Tag>.self)._content }, modify: { $0(&Swift.unsafeDowncast($1, to: Box<Content, Tag>.self)._content) }) {}
          }
        }
      }

      extension Box: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a @MainActor class gets nonisolated members and a nonisolated conformance")
  func mainActorClass() {
    assertMacro {
      """
      @MainActor
      @KeyValueObservable
      final class ViewModel {
        var title = ""
      }
      """
    } expansion: {
      #"""
      @MainActor
      final class ViewModel {
        var title {
          @storageRestrictions(initializes: _title)
          init(initialValue) {
            _title = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_ViewModel + 0)
            return _title
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _title = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_ViewModel + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_ViewModel + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_ViewModel + 0) else {
              var _$kvoValue = _title
              defer { self.title = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_ViewModel + 0) }
            yield &_title
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _title = ""

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_ViewModel: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_ViewModel + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_ViewModel }

        private nonisolated static let _$kvoKeys_ViewModel = KeyValueObserving._KeyValueKeyTable(ViewModel.self) {
          if case (\ViewModel.title, \ViewModel?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: ViewModel.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: ViewModel.self)._title) }) {}
        }

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

      extension ViewModel: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
