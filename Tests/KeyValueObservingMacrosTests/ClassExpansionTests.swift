import MacroTesting
import Testing

/// What `@KeyValueObservable` writes for each kind of member of a final
/// class: stored, computed, with observers, read by string, none.
@Suite(.macros(rootClassMacros, record: .missing))
struct ClassExpansionTests {
  @Test("a final class: stored vars become observable, everything else is left alone")
  func finalClass() {
    assertMacro {
      """
      @KeyValueObservable
      final class Person {
        var name = ""
        var nickname: String?
        let id = 1
        var summary: String { name }
        static var count = 0
        lazy var greeting = "Hi"
        @KeyValueIgnored var cache = 0
      }
      """
    } expansion: {
      #"""
      final class Person {
        var name {
          @storageRestrictions(initializes: _name)
          init(initialValue) {
            _name = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Person + 0)
            return _name
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _name = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 0, to: newValue, get: { $0._name }, set: { $0._name = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Person + 0) else {
              yield &_name
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) else {
              var _$kvoValue = _name
              defer { self.name = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) }
            yield &_name
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _name = ""
        var nickname: String? {
          @storageRestrictions(initializes: _nickname)
          init(initialValue) {
            _nickname = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Person + 1)
            return _nickname
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _nickname = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 1, to: newValue, get: { $0._nickname }, set: { $0._nickname = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Person + 1) else {
              yield &_nickname
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 1) else {
              var _$kvoValue = _nickname
              defer { self.nickname = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 1) }
            yield &_nickname
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _nickname: String?
        let id = 1
        var summary: String { name }
        static var count = 0
        lazy var greeting = "Hi"
        var cache = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Person: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Person + 2 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Person }

        private nonisolated static let _$kvoKeys_Person = KeyValueObserving._KeyValueKeyTable(Person.self) {
          if case (\Person.name, \Person?.?.name) = $0.stored("name", get: { Swift.unsafeDowncast($0, to: Person.self)._name }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._name) }) {}
          if case (\Person.nickname, \Person?.?.nickname) = $0.stored("nickname", get: { Swift.unsafeDowncast($0, to: Person.self)._nickname }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._nickname) }) {}
          if case \Person.id = $0.constant("id") {}
          if case \Person.summary = $0.computed("summary", { (object: Person) in object.summary }) {}
          if case \Person.greeting = $0.unannounced("greeting") {}
          if case \Person.cache = $0.unannounced("cache") {}
        }
      }

      extension Person: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("computed properties: the table hands out the getters it can call, and no others")
  func computedGetters() {
    assertMacro {
      """
      @KeyValueObservable
      final class Sheet {
        var rows = 0
        var area: Int { rows * 2 }
        var label: String {
          get { "\\(rows)" }
          set { rows = Int(newValue) ?? 0 }
        }
        var checked: Int { get throws { rows } }
        var loaded: Int { get async { rows } }
        var anyRows: some Collection { [rows] }
        var me: Self { self }
        private var secret: Int { rows }
        @MainActor var onMain: Int { rows }
        static var shared: Int { 0 }
      }
      """
    } expansion: {
      #"""
      final class Sheet {
        var rows {
          @storageRestrictions(initializes: _rows)
          init(initialValue) {
            _rows = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Sheet + 0)
            return _rows
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _rows = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: newValue, get: { $0._rows }, set: { $0._rows = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 0) else {
              yield &_rows
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) else {
              var _$kvoValue = _rows
              defer { self.rows = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) }
            yield &_rows
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _rows = 0
        var area: Int { rows * 2 }
        var label: String {
          get { "\(rows)" }
          set { rows = Int(newValue) ?? 0 }
        }
        var checked: Int { get throws { rows } }
        var loaded: Int { get async { rows } }
        var anyRows: some Collection { [rows] }
        var me: Self { self }
        private var secret: Int { rows }
        @MainActor var onMain: Int { rows }
        static var shared: Int { 0 }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Sheet }

        private nonisolated static let _$kvoKeys_Sheet = KeyValueObserving._KeyValueKeyTable(Sheet.self) {
          if case (\Sheet.rows, \Sheet?.?.rows) = $0.stored("rows", get: { Swift.unsafeDowncast($0, to: Sheet.self)._rows }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._rows) }) {}
          if case \Sheet.area = $0.computed("area", { (object: Sheet) in object.area }) {}
          if case \Sheet.label = $0.computed("label", { (object: Sheet) in object.label }) {}
          if case \Sheet.anyRows = $0.computed("anyRows", { (object: Sheet) in object.anyRows }) {}
          if case \Sheet.me = $0.computed("me", { (object: Sheet) in object.me }) {}
          if case \Sheet.onMain = $0.other("onMain") {}
        }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("willSet and didSet move to the backing storage")
  func propertyObservers() {
    assertMacro {
      """
      @KeyValueObservable
      final class Thermostat {
        var target: Int = 20 {
          willSet { print(newValue) }
          didSet { print(oldValue) }
        }
      }
      """
    } expansion: {
      #"""
      final class Thermostat {
        var target: Int {
          willSet { print(newValue) }
          didSet { print(oldValue) }
            @storageRestrictions(initializes: _target)
            init(initialValue) {
              _target = initialValue
            }


            get {
              KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Thermostat + 0)
              return _target
            }


            set {
              guard let _$kvoObserved = self._$kvoObservedStorage else {
                _target = newValue
                return
              }
              _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Thermostat + 0, to: newValue, hasPropertyObservers: true, get: { $0._target }, set: { $0._target = $1 })
            }


            _modify {
              guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Thermostat + 0) else {
                yield &_target
                return
              }
              guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Thermostat + 0) else {
                var _$kvoValue = _target
                defer { self.target = _$kvoValue }
                yield &_$kvoValue
                return
              }
              defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Thermostat + 0) }
              yield &_target
            }
        }

        @exclusivity(unchecked) private final var _target: Int = 20 {
            willSet {
                print(newValue)
            }
            didSet {
                print(oldValue)
            }
          }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Thermostat: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Thermostat + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Thermostat }

        private nonisolated static let _$kvoKeys_Thermostat = KeyValueObserving._KeyValueKeyTable(Thermostat.self) {
          if case (\Thermostat.target, \Thermostat?.?.target, \Thermostat._target) = $0.stored("target") {}
        }
      }

      extension Thermostat: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("key-value coding reaches the other readable properties, except private ones")
  func otherReadableProperties() {
    assertMacro {
      """
      @KeyValueObservable
      final class Vault {
        let shown = 1
        private let secret = 2
        fileprivate var hidden: Int { 3 }
        var total: Int { shown + secret }
      }
      """
    } expansion: {
      #"""
      final class Vault {
        let shown = 1
        private let secret = 2
        fileprivate var hidden: Int { 3 }
        var total: Int { shown + secret }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Vault: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Vault + 0 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Vault }

        private nonisolated static let _$kvoKeys_Vault = KeyValueObserving._KeyValueKeyTable(Vault.self) {
          if case \Vault.shown = $0.constant("shown") {}
          if case \Vault.total = $0.computed("total", { (object: Vault) in object.total }) {}
        }
      }

      extension Vault: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a class with no observable properties still gets an empty key table")
  func noProperties() {
    assertMacro {
      """
      @KeyValueObservable
      final class Empty {
        let id = 0
      }
      """
    } expansion: {
      #"""
      final class Empty {
        let id = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Empty: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Empty + 0 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Empty }

        private nonisolated static let _$kvoKeys_Empty = KeyValueObserving._KeyValueKeyTable(Empty.self) {
          if case \Empty.id = $0.constant("id") {}
        }
      }

      extension Empty: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("an initial value that may call isolated code: left to the init accessor when typed, isolated storage in a @MainActor class when not")
  func isolatedInitialValues() {
    assertMacro {
      """
      @KeyValueObservable
      @MainActor
      final class Pane {
        var selection: Selection = Selection()
        var detail = Detail()
        var count = 0
        var names: [String] = ["a", "b"]
      }
      """
    } expansion: {
      #"""
      @MainActor
      final class Pane {
        var selection: Selection {
          @storageRestrictions(initializes: _selection)
          init(initialValue) {
            _selection = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Pane + 0)
            return _selection
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _selection = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Pane + 0, to: newValue, get: { $0._selection }, set: { $0._selection = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Pane + 0) else {
              yield &_selection
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 0) else {
              var _$kvoValue = _selection
              defer { self.selection = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 0) }
            yield &_selection
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _selection: Selection
        var detail {
          @storageRestrictions(initializes: _detail)
          init(initialValue) {
            _detail = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Pane + 1)
            return _detail
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _detail = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Pane + 1, to: newValue, get: { $0._detail }, set: { $0._detail = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Pane + 1) else {
              yield &_detail
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 1) else {
              var _$kvoValue = _detail
              defer { self.detail = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 1) }
            yield &_detail
          }
        }

        @exclusivity(unchecked) private final var _detail = Detail()
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Pane + 2)
            return _count
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _count = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Pane + 2, to: newValue, get: { $0._count }, set: { $0._count = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Pane + 2) else {
              yield &_count
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 2) else {
              var _$kvoValue = _count
              defer { self.count = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 2) }
            yield &_count
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _count = 0
        var names: [String] {
          @storageRestrictions(initializes: _names)
          init(initialValue) {
            _names = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Pane + 3)
            return _names
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _names = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Pane + 3, to: newValue, get: { $0._names }, set: { $0._names = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Pane + 3) else {
              yield &_names
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 3) else {
              var _$kvoValue = _names
              defer { self.names = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Pane + 3) }
            yield &_names
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _names: [String] = ["a", "b"]

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Pane: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Pane + 4 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Pane }

        private nonisolated static let _$kvoKeys_Pane = KeyValueObserving._KeyValueKeyTable(Pane.self) {
          if case (\Pane.selection, \Pane?.?.selection) = $0.stored("selection", get: { Swift.unsafeDowncast($0, to: Pane.self)._selection }, modify: { $0(&Swift.unsafeDowncast($1, to: Pane.self)._selection) }) {}
          if case (\Pane.detail, \Pane?.?.detail, \Pane._detail) = $0.stored("detail") {}
          if case (\Pane.count, \Pane?.?.count) = $0.stored("count", get: { Swift.unsafeDowncast($0, to: Pane.self)._count }, modify: { $0(&Swift.unsafeDowncast($1, to: Pane.self)._count) }) {}
          if case (\Pane.names, \Pane?.?.names) = $0.stored("names", get: { Swift.unsafeDowncast($0, to: Pane.self)._names }, modify: { $0(&Swift.unsafeDowncast($1, to: Pane.self)._names) }) {}
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

      extension Pane: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
