import MacroTesting
import Testing

@Suite(.macros(rootClassMacros, record: .missing))
struct KeyValueObservableMacroTests {
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 0, to: newValue, get: { $0._name }, set: { $0._name = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Person + 0) else {
              yield &_name
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) else {
              var _$kvoValue = _name
              yield &_$kvoValue
              self.name = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) }
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 1, to: newValue, get: { $0._nickname }, set: { $0._nickname = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Person + 1) else {
              yield &_nickname
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 1) else {
              var _$kvoValue = _nickname
              yield &_$kvoValue
              self.nickname = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 1) }
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
          if case \Person.name = $0.stored("name", get: { Swift.unsafeDowncast($0, to: Person.self)._name }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._name) }) {}
          if case \Person.nickname = $0.stored("nickname", get: { Swift.unsafeDowncast($0, to: Person.self)._nickname }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._nickname) }) {}
          if case \Person.id = $0.constant("id") {}
          if case \Person.summary = $0.computed("summary", { @MainActor (object: Person) in object.summary }) {}
          if case \Person.greeting = $0.other("greeting") {}
          if case \Person.cache = $0.other("cache") {}
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: newValue, get: { $0._rows }, set: { $0._rows = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 0) else {
              yield &_rows
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) else {
              var _$kvoValue = _rows
              yield &_$kvoValue
              self.rows = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) }
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
          if case \Sheet.rows = $0.stored("rows", get: { Swift.unsafeDowncast($0, to: Sheet.self)._rows }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._rows) }) {}
          if case \Sheet.area = $0.computed("area", { @MainActor (object: Sheet) in object.area }) {}
          if case \Sheet.label = $0.computed("label", { @MainActor (object: Sheet) in object.label }) {}
          if case \Sheet.anyRows = $0.computed("anyRows", { @MainActor (object: Sheet) in object.anyRows }) {}
          if case \Sheet.me = $0.computed("me", { @MainActor (object: Sheet) in object.me }) {}
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
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Thermostat + 0, to: newValue, hasPropertyObservers: true, get: { $0._target }, set: { $0._target = $1 })
            }


            _modify {
              guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Thermostat + 0) else {
                yield &_target
                return
              }
              guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Thermostat + 0) else {
                var _$kvoValue = _target
                yield &_$kvoValue
                self.target = _$kvoValue
                return
              }
              defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Thermostat + 0) }
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
          if case (\Thermostat.target, \Thermostat._target) = $0.stored("target") {}
        }
      }

      extension Thermostat: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Vehicle + 0, to: newValue, get: { $0.wheels }, set: { $0._wheels = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Vehicle + 0) else {
              yield &_wheels
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Vehicle + 0) else {
              var _$kvoValue = _wheels
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Vehicle + 0, to: _$kvoValue, get: { $0.wheels }, set: { $0._wheels = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Vehicle + 0) }
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
          if case \Vehicle.wheels = $0.stored("wheels", get: { Swift.unsafeDowncast($0, to: Vehicle.self)._wheels }, modify: { $0(&Swift.unsafeDowncast($1, to: Vehicle.self)._wheels) }) {}
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Box + 0, to: newValue, get: { $0._content }, set: { $0._content = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Box + 0) else {
              yield &_content
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Box + 0) else {
              var _$kvoValue = _content
              yield &_$kvoValue
              self.content = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Box + 0) }
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
            if case \Box<Content, Tag>.content = $0.stored("content", get: { Swift.unsafeDowncast($0, to: Box<Content, Tag>.self)._content }, modify: { $0(&Swift.unsafeDowncast($1, to: Box<Content, Tag>.self)._content) }) {}
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_ViewModel + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_ViewModel + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_ViewModel + 0) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              self.title = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_ViewModel + 0) }
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
          if case \ViewModel.title = $0.stored("title", get: { Swift.unsafeDowncast($0, to: ViewModel.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: ViewModel.self)._title) }) {}
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
        final func withChange<Result>(forKey key: Swift.String, _ body: () throws -> Result) throws -> Result {
          try KeyValueObserving._KeyValueIsolatedStringKeys.withChange(forKey: key, on: self, body)
        }

        final func addObserver(
          _ observer: any KeyValueObserving.KeyValueObserver,
          forKeyPath keyPath: Swift.String,
          options: KeyValueObserving.KeyValueObservingOptions = [],
          context: Swift.UnsafeMutableRawPointer? = nil
        ) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.addObserver(observer, forKeyPath: keyPath, options: options, context: context, on: self)
        }
      }

      extension ViewModel: nonisolated KeyValueObserving.KeyValueObservable {}
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
          if case \Vault.total = $0.computed("total", { @MainActor (object: Vault) in object.total }) {}
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
}

@Suite(.macros(subclassMacros, record: .missing))
struct KeyValueObservableSubclassMacroTests {
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Truck + 0, to: newValue, get: { $0.payload }, set: { $0._payload = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Truck + 0) else {
              yield &_payload
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Truck + 0) else {
              var _$kvoValue = _payload
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Truck + 0, to: _$kvoValue, get: { $0.payload }, set: { $0._payload = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Truck + 0) }
            yield &_payload
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _payload = 0.0

        private nonisolated static var _$kvoFirstSlot_Truck: Swift.Int { super._$kvoKeyCount }

        nonisolated override class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Truck + 1 }

        nonisolated override class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Truck }

        private nonisolated static let _$kvoKeys_Truck = KeyValueObserving._KeyValueKeyTable(Truck.self, after: Vehicle._$kvoKeys) {
          if case \Truck.payload = $0.stored("payload", get: { Swift.unsafeDowncast($0, to: Truck.self)._payload }, modify: { $0(&Swift.unsafeDowncast($1, to: Truck.self)._payload) }) {}
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

@Suite(.macros(rootClassMacros, record: .missing))
struct ObservationExpansionTests {
  @Test("a class that declares Observable gets a registrar and reporting members; its accessors are as for any class")
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
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Sheet + 0)
            return _title
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _title = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              self.title = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) }
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
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Sheet + 1)
            return _count
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _count = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 1, to: newValue, get: { $0._count }, set: { $0._count = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 1) else {
              yield &_count
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 1) else {
              var _$kvoValue = _count
              yield &_$kvoValue
              self.count = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 1) }
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
          if case \Sheet.title = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
          if case \Sheet.count = $0.stored("count", get: { Swift.unsafeDowncast($0, to: Sheet.self)._count }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._count) }) {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          switch slot - Self._$kvoFirstSlot_Sheet {
          case 0: _$kvoObservationRegistrar._$kvoReport(event, self, Self._$kvoObservationKeyPaths.0)
          case 1: _$kvoObservationRegistrar._$kvoReport(event, self, Self._$kvoObservationKeyPaths.1)
          default: _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot))
          }
        }

        private nonisolated(unsafe) static let _$kvoObservationKeyPaths = Sheet._$kvoObservedKeyPaths((0, \Sheet._title), (1, \Sheet._count))
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
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Sheet + 0)
            return _title
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _title = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Sheet + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              self.title = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0) }
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
          if case \Sheet.title = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          guard case .access = event, let keyPath = type(of: self)._$kvoKeyPath(forSlot: slot) as? any KeyValueObserving._KeyValueTypedKeyPath<Sheet> else {
            return _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot))
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

  @Test("a main-actor class that declares Observable keeps its properties' key paths as constants; a property with observers is named by a pattern")
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
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Screen + 0)
            return _headline
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _headline = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Screen + 0, to: newValue, get: { $0._headline }, set: { $0._headline = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Screen + 0) else {
              yield &_headline
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 0) else {
              var _$kvoValue = _headline
              yield &_$kvoValue
              self.headline = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 0) }
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
              KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Screen + 1)
              return _zoom
            }


            set {
              guard let _$kvoObserved = self._$kvoObservedStorage else {
                _zoom = newValue
                return
              }
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Screen + 1, to: newValue, hasPropertyObservers: true, get: { $0._zoom }, set: { $0._zoom = $1 })
            }


            _modify {
              guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Screen + 1) else {
                yield &_zoom
                return
              }
              guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 1) else {
                var _$kvoValue = _zoom
                yield &_$kvoValue
                self.zoom = _$kvoValue
                return
              }
              defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 1) }
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
          if case \Screen.headline = $0.stored("headline", get: { Swift.unsafeDowncast($0, to: Screen.self)._headline }, modify: { $0(&Swift.unsafeDowncast($1, to: Screen.self)._headline) }) {}
          if case (\Screen.zoom, \Screen._zoom) = $0.stored("zoom") {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          switch slot - Self._$kvoFirstSlot_Screen {
          case 0: _$kvoObservationRegistrar._$kvoReport(event, self, Self._$kvoObservationKeyPaths)
          default: _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot))
          }
        }

        private nonisolated(unsafe) static let _$kvoObservationKeyPaths = Screen._$kvoObservedKeyPaths((0, \Screen._headline))

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
        final func withChange<Result>(forKey key: Swift.String, _ body: () throws -> Result) throws -> Result {
          try KeyValueObserving._KeyValueIsolatedStringKeys.withChange(forKey: key, on: self, body)
        }

        final func addObserver(
          _ observer: any KeyValueObserving.KeyValueObserver,
          forKeyPath keyPath: Swift.String,
          options: KeyValueObserving.KeyValueObservingOptions = [],
          context: Swift.UnsafeMutableRawPointer? = nil
        ) throws(KeyValueObserving.KeyValueCodingError) {
          try KeyValueObserving._KeyValueIsolatedStringKeys.addObserver(observer, forKeyPath: keyPath, options: options, context: context, on: self)
        }
      }

      extension Screen: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
