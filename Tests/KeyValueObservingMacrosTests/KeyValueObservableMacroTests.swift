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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0, get: { $0._name }) else {
              var _$kvoValue = _name
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 0, to: _$kvoValue, get: { $0._name }, set: { $0._name = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0, get: { $0._name }) }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 1, get: { $0._nickname }) else {
              var _$kvoValue = _nickname
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 1, to: _$kvoValue, get: { $0._nickname }, set: { $0._nickname = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 1, get: { $0._nickname }) }
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

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Person.name: return _$kvoFirstSlot_Person + 0
          case \Person.nickname: return _$kvoFirstSlot_Person + 1
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "name": return _$kvoFirstSlot_Person + 0
          case "nickname": return _$kvoFirstSlot_Person + 1
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Person {
          case 0: return "name"
          case 1: return "nickname"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Person, capture) {
          case (0, \Person.name): return capture.keyPath
          case (1, \Person.nickname): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Person, access) {
          case (0, _): return access.visit(\Person._name, get: { $0._name }, set: { $0._name = $1 }, modify: { $0(&$1._name) })
          case (1, _): return access.visit(\Person._nickname, get: { $0._nickname }, set: { $0._nickname = $1 }, modify: { $0(&$1._nickname) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Person.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Person.name: return "name"
          case \Person.nickname: return "nickname"
          case \Person.id: return "id"
          case \Person.summary: return "summary"
          case \Person.greeting: return "greeting"
          case \Person.cache: return "cache"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("id", \Person.id): return capture.keyPath
          case ("summary", \Person.summary): return capture.keyPath
          case ("greeting", \Person.greeting): return capture.keyPath
          case ("cache", \Person.cache): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? {
          switch keyPath {
          case \Person.summary: return { @MainActor (object: Person) -> String in object.summary }
          default: return nil
          }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0, get: { $0._rows }) else {
              var _$kvoValue = _rows
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: _$kvoValue, get: { $0._rows }, set: { $0._rows = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0, get: { $0._rows }) }
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

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Sheet.rows: return _$kvoFirstSlot_Sheet + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "rows": return _$kvoFirstSlot_Sheet + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Sheet {
          case 0: return "rows"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Sheet, capture) {
          case (0, \Sheet.rows): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Sheet, access) {
          case (0, _): return access.visit(\Sheet._rows, get: { $0._rows }, set: { $0._rows = $1 }, modify: { $0(&$1._rows) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Sheet.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Sheet.rows: return "rows"
          case \Sheet.area: return "area"
          case \Sheet.label: return "label"
          case \Sheet.anyRows: return "anyRows"
          case \Sheet.me: return "me"
          case \Sheet.onMain: return "onMain"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("area", \Sheet.area): return capture.keyPath
          case ("label", \Sheet.label): return capture.keyPath
          case ("anyRows", \Sheet.anyRows): return capture.keyPath
          case ("me", \Sheet.me): return capture.keyPath
          case ("onMain", \Sheet.onMain): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? {
          switch keyPath {
          case \Sheet.area: return { @MainActor (object: Sheet) -> Int in object.area }
          case \Sheet.label: return { @MainActor (object: Sheet) -> String in object.label }
          default: return nil
          }
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
              guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Thermostat + 0, get: { $0._target }) else {
                var _$kvoValue = _target
                yield &_$kvoValue
                _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Thermostat + 0, to: _$kvoValue, hasPropertyObservers: true, get: { $0._target }, set: { $0._target = $1 })
                return
              }
              defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Thermostat + 0, get: { $0._target }) }
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

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Thermostat.target: return _$kvoFirstSlot_Thermostat + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "target": return _$kvoFirstSlot_Thermostat + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Thermostat {
          case 0: return "target"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Thermostat, capture) {
          case (0, \Thermostat.target): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Thermostat, access) {
          case (0, \Thermostat._target): return true
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Thermostat.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Thermostat.target: return "target"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Vehicle + 0, get: { $0.wheels }) else {
              var _$kvoValue = _wheels
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Vehicle + 0, to: _$kvoValue, get: { $0.wheels }, set: { $0._wheels = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Vehicle + 0, get: { $0.wheels }) }
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

        open nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Vehicle.wheels: return _$kvoFirstSlot_Vehicle + 0
          default: break
          }
          guard Self.self != Vehicle.self else {
            return nil
          }
          return KeyValueObserving._KeyPathSlotCache.slot(for: keyPath, in: Self.self, declaredIn: Vehicle.self) {
            func slot<Root: Vehicle>(in _: Root.Type) -> Swift.Int? {
              switch keyPath {
              case \Root.wheels: return _$kvoFirstSlot_Vehicle + 0
              default: return nil
              }
            }
            return slot(in: Self.self)
          }
        }

        open nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "wheels": return _$kvoFirstSlot_Vehicle + 0
          default: return nil
          }
        }

        open nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Vehicle {
          case 0: return "wheels"
          default: return nil
          }
        }

        open nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Vehicle, capture) {
          case (0, \Vehicle.wheels): return capture.keyPath
          default: return nil
          }
        }

        open nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Vehicle, access) {
          case (0, _): return access.visit(\Vehicle._wheels, get: { $0._wheels }, set: { $0._wheels = $1 }, modify: { $0(&$1._wheels) })
          default: return false
          }
        }

        open nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Vehicle.self }

        open nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Vehicle.wheels: return "wheels"
          default: return nil
          }
        }

        open nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        open nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        open nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Box + 0, get: { $0._content }) else {
              var _$kvoValue = _content
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Box + 0, to: _$kvoValue, get: { $0._content }, set: { $0._content = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Box + 0, get: { $0._content }) }
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

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          return KeyValueObserving._KeyPathSlotCache.slot(for: keyPath, in: Self.self, declaredIn: Box<Content, Tag>.self) {
            func slot<Root: Box<Content, Tag>>(in _: Root.Type) -> Swift.Int? {
              switch keyPath {
              case \Root.content: return _$kvoFirstSlot_Box + 0
              default: return nil
              }
            }
            return slot(in: Self.self)
          }
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "content": return _$kvoFirstSlot_Box + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Box {
          case 0: return "content"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Box, capture) {
          case (0, \Box<Content, Tag>.content): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Box, access) {
          case (0, _): return access.visit(\Box<Content, Tag>._content, get: { $0._content }, set: { $0._content = $1 }, modify: { $0(&$1._content) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Box<Content, Tag>.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Box<Content, Tag>.content: return "content"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_ViewModel + 0, get: { $0._title }) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_ViewModel + 0, to: _$kvoValue, get: { $0._title }, set: { $0._title = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_ViewModel + 0, get: { $0._title }) }
            yield &_title
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _title = ""

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_ViewModel: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_ViewModel + 1 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \ViewModel.title: return _$kvoFirstSlot_ViewModel + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "title": return _$kvoFirstSlot_ViewModel + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_ViewModel {
          case 0: return "title"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_ViewModel, capture) {
          case (0, \ViewModel.title): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_ViewModel, access) {
          case (0, _): return access.visit(\ViewModel._title, get: { $0._title }, set: { $0._title = $1 }, modify: { $0(&$1._title) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { ViewModel.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \ViewModel.title: return "title"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }

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

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? { nil }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? { nil }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool { false }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Vault.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Vault.shown: return "shown"
          case \Vault.total: return "total"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("shown", \Vault.shown): return capture.keyPath
          case ("total", \Vault.total): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? {
          switch keyPath {
          case \Vault.total: return { @MainActor (object: Vault) -> Int in object.total }
          default: return nil
          }
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

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? { nil }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? { nil }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool { false }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Empty.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Empty.id: return "id"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("id", \Empty.id): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Truck + 0, get: { $0.payload }) else {
              var _$kvoValue = _payload
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Truck + 0, to: _$kvoValue, get: { $0.payload }, set: { $0._payload = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Truck + 0, get: { $0.payload }) }
            yield &_payload
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _payload = 0.0

        private nonisolated static var _$kvoFirstSlot_Truck: Swift.Int { super._$kvoKeyCount }

        nonisolated override class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Truck + 1 }

        nonisolated override class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Truck.payload: return _$kvoFirstSlot_Truck + 0
          default: break
          }
          guard Self.self != Truck.self else {
            return super._$kvoSlot(for: keyPath)
          }
          return KeyValueObserving._KeyPathSlotCache.slot(for: keyPath, in: Self.self, declaredIn: Truck.self) {
            func slot<Root: Truck>(in _: Root.Type) -> Swift.Int? {
              switch keyPath {
              case \Root.payload: return _$kvoFirstSlot_Truck + 0
              default: return nil
              }
            }
            return slot(in: Self.self)
          } ?? super._$kvoSlot(for: keyPath)
        }

        nonisolated override class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "payload": return _$kvoFirstSlot_Truck + 0
          default: return super._$kvoSlot(forKey: key)
          }
        }

        nonisolated override class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Truck {
          case 0: return "payload"
          default: return super._$kvoKey(forSlot: slot)
          }
        }

        nonisolated override class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Truck, capture) {
          case (0, \Truck.payload): return capture.keyPath
          default: return super._$kvoKeyPath(forSlot: slot)
          }
        }

        nonisolated override class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Truck, access) {
          case (0, _): return access.visit(\Truck._payload, get: { $0._payload }, set: { $0._payload = $1 }, modify: { $0(&$1._payload) })
          default: return super._$kvoAccessStorage(ofSlot: slot, access)
          }
        }

        nonisolated override class var _$kvoMarkedType: Swift.AnyObject.Type { Truck.self }

        nonisolated override class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Truck.payload: return "payload"
          default: return super._$kvoName(for: keyPath)
          }
        }

        nonisolated override class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { super._$kvoIsReadOnly(forKey: key) }

        nonisolated override class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { super._$kvoOtherKeyPath(forKey: key) }

        nonisolated override class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { super._$kvoGetter(for: keyPath) }
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

        nonisolated override class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          default: break
          }
          return super._$kvoSlot(for: keyPath)
        }

        nonisolated override class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? { super._$kvoSlot(forKey: key) }

        nonisolated override class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? { super._$kvoKey(forSlot: slot) }

        nonisolated override class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? { super._$kvoKeyPath(forSlot: slot) }

        nonisolated override class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool { ![super._$kvoSlot(forKey: "level"), super._$kvoSlot(forKey: "label")].contains(slot) && super._$kvoAccessStorage(ofSlot: slot, access) }

        nonisolated override class var _$kvoMarkedType: Swift.AnyObject.Type { ClampedDial.self }

        nonisolated override class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \ClampedDial.level: return "level"
          case \ClampedDial.label: return "label"
          default: return super._$kvoName(for: keyPath)
          }
        }

        nonisolated override class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { super._$kvoIsReadOnly(forKey: key) }

        nonisolated override class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("level", \ClampedDial.level): return capture.keyPath
          case ("label", \ClampedDial.label): return capture.keyPath
          default: return super._$kvoOtherKeyPath(forKey: key)
          }
        }

        nonisolated override class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { super._$kvoGetter(for: keyPath) }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0, get: { $0._title }) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 0, to: _$kvoValue, get: { $0._title }, set: { $0._title = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 0, get: { $0._title }) }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 1, get: { $0._count }) else {
              var _$kvoValue = _count
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Sheet + 1, to: _$kvoValue, get: { $0._count }, set: { $0._count = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Sheet + 1, get: { $0._count }) }
            yield &_count
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _count = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage ?? Swift.Unmanaged.passUnretained(_$kvoRegistrar.makeStorage(for: self)) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 2 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Sheet.title: return _$kvoFirstSlot_Sheet + 0
          case \Sheet.count: return _$kvoFirstSlot_Sheet + 1
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "title": return _$kvoFirstSlot_Sheet + 0
          case "count": return _$kvoFirstSlot_Sheet + 1
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Sheet {
          case 0: return "title"
          case 1: return "count"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Sheet, capture) {
          case (0, \Sheet.title): return capture.keyPath
          case (1, \Sheet.count): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Sheet, access) {
          case (0, _): return access.visit(\Sheet._title, get: { $0._title }, set: { $0._title = $1 }, modify: { $0(&$1._title) })
          case (1, _): return access.visit(\Sheet._count, get: { $0._count }, set: { $0._count = $1 }, modify: { $0(&$1._count) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Sheet.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Sheet.title: return "title"
          case \Sheet.count: return "count"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          switch slot - Self._$kvoFirstSlot_Sheet {
          case 0: _$kvoObservationRegistrar._$kvoReport(event, self, Self._$kvoObservationKeyPath_title)
        case 1: _$kvoObservationRegistrar._$kvoReport(event, self, Self._$kvoObservationKeyPath_count)
        default: _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot))
          }
        }

        nonisolated final func _$kvoObservedMutation<Result>(ofSlot slot: Swift.Int, _ mutation: () -> Result) -> Result {
          switch slot - Self._$kvoFirstSlot_Sheet {
          case 0: return _$kvoObservationRegistrar.withMutation(of: self, keyPath: Self._$kvoObservationKeyPath_title, mutation)
        case 1: return _$kvoObservationRegistrar.withMutation(of: self, keyPath: Self._$kvoObservationKeyPath_count, mutation)
        default: return _$kvoObservedMutationByEvents(ofSlot: slot, mutation)
          }
        }

        private nonisolated static let _$kvoObservationKeyPath_title = \Sheet._title

        private nonisolated static let _$kvoObservationKeyPath_count = \Sheet._count
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a main-actor class that declares Observable keeps its storage's key paths as constants; a property with observers is named by a pattern")
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 0, get: { $0._headline }) else {
              var _$kvoValue = _headline
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Screen + 0, to: _$kvoValue, get: { $0._headline }, set: { $0._headline = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 0, get: { $0._headline }) }
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
              guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 1, get: { $0._zoom }) else {
                var _$kvoValue = _zoom
                yield &_$kvoValue
                _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Screen + 1, to: _$kvoValue, hasPropertyObservers: true, get: { $0._zoom }, set: { $0._zoom = $1 })
                return
              }
              defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Screen + 1, get: { $0._zoom }) }
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

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage ?? Swift.Unmanaged.passUnretained(_$kvoRegistrar.makeStorage(for: self)) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Screen: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Screen + 2 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Screen.headline: return _$kvoFirstSlot_Screen + 0
          case \Screen.zoom: return _$kvoFirstSlot_Screen + 1
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "headline": return _$kvoFirstSlot_Screen + 0
          case "zoom": return _$kvoFirstSlot_Screen + 1
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Screen {
          case 0: return "headline"
          case 1: return "zoom"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Screen, capture) {
          case (0, \Screen.headline): return capture.keyPath
          case (1, \Screen.zoom): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Screen, access) {
          case (0, _): return access.visit(\Screen._headline, get: { $0._headline }, set: { $0._headline = $1 }, modify: { $0(&$1._headline) })
          case (1, \Screen._zoom): return true
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Screen.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Screen.headline: return "headline"
          case \Screen.zoom: return "zoom"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          let capture = KeyValueObserving._KeyPathCapture()
        switch (slot - Self._$kvoFirstSlot_Screen, capture) {
          case (0, _): _$kvoObservationRegistrar._$kvoReport(event, self, Self._$kvoObservationKeyPath_headline)
        case (1, \Screen.zoom): _$kvoObservationRegistrar._$kvoReport(event, self, capture.keyPath)
        default: _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot))
          }
        }

        nonisolated final func _$kvoObservedMutation<Result>(ofSlot slot: Swift.Int, _ mutation: () -> Result) -> Result {
          switch slot - Self._$kvoFirstSlot_Screen {
          case 0: return _$kvoObservationRegistrar.withMutation(of: self, keyPath: Self._$kvoObservationKeyPath_headline, mutation)
        default: return _$kvoObservedMutationByEvents(ofSlot: slot, mutation)
          }
        }

        private nonisolated static let _$kvoObservationKeyPath_headline = \Screen._headline

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
