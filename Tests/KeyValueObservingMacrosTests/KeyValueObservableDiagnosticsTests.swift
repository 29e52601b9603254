import MacroTesting
import Testing

@Suite(.macros(rootClassMacros, record: .missing))
struct KeyValueObservableDiagnosticsTests {
  @Test("a struct is rejected, with a fix-it to make it a final class")
  func structRejected() {
    assertMacro {
      """
      @KeyValueObservable
      struct Point {
        var x = 0
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      ┬──────────────────
      ╰─ 🛑 '@KeyValueObservable' applies to classes only: a struct is copied, so there is no one object to observe
         ✏️ Use 'final class'
      struct Point {
        var x = 0
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Point {
        var x = 0
      }
      """
    } expansion: {
      #"""
      final class Point {
        var x = 0

        @exclusivity(unchecked) private final var _x = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Point: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Point + 1 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Point.x: return _$kvoFirstSlot_Point + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "x": return _$kvoFirstSlot_Point + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Point {
          case 0: return "x"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Point, capture) {
          case (0, \Point.x): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Point, access) {
          case (0, _): return access.visit(\Point._x, get: { $0._x }, set: { $0._x = $1 }, modify: { $0(&$1._x) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Point.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Point.x: return "x"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Point: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("an enum is rejected")
  func enumRejected() {
    assertMacro {
      """
      @KeyValueObservable
      enum Direction {
        case up, down
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      ┬──────────────────
      ╰─ 🛑 '@KeyValueObservable' applies to classes only, not to an enum
      enum Direction {
        case up, down
      }
      """
    }
  }

  @Test("an actor is rejected, with a fix-it to make it a final class")
  func actorRejected() {
    assertMacro {
      """
      @KeyValueObservable
      actor Bank {
        var balance = 0
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      ┬──────────────────
      ╰─ 🛑 '@KeyValueObservable' applies to classes only: an actor's state cannot be observed synchronously from outside it
         ✏️ Use 'final class'
      actor Bank {
        var balance = 0
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Bank {
        var balance = 0
      }
      """
    } expansion: {
      #"""
      final class Bank {
        var balance = 0

        @exclusivity(unchecked) private final var _balance = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Bank: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Bank + 1 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Bank.balance: return _$kvoFirstSlot_Bank + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "balance": return _$kvoFirstSlot_Bank + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Bank {
          case 0: return "balance"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Bank, capture) {
          case (0, \Bank.balance): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Bank, access) {
          case (0, _): return access.visit(\Bank._balance, get: { $0._balance }, set: { $0._balance = $1 }, modify: { $0(&$1._balance) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Bank.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Bank.balance: return "balance"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Bank: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a protocol is rejected")
  func protocolRejected() {
    assertMacro {
      """
      @KeyValueObservable
      protocol Named {
        var name: String { get }
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      ┬──────────────────
      ╰─ 🛑 '@KeyValueObservable' applies to classes only, not to a protocol; mark each conforming class instead
      protocol Named {
        var name: String { get }
      }
      """
    }
  }

  @Test("property-wrapped properties stay plain, with a warning and a fix-it")
  func unsupportedProperties() {
    assertMacro {
      """
      @KeyValueObservable
      final class Node {
        @Clamped var level = 0
        var value = 0
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Node {
        @Clamped var level = 0
        ┬───────
        ╰─ ⚠️ a property with a property wrapper cannot be made observable; it stays a plain property
           ✏️ Mark it '@KeyValueIgnored'
        var value = 0
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Node {
        @KeyValueIgnored @Clamped var level = 0
        var value = 0
      }
      """
    } expansion: {
      #"""
      final class Node {
        @Clamped var level = 0
        var value = 0

        @exclusivity(unchecked) private final var _value = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Node: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Node + 1 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Node.value: return _$kvoFirstSlot_Node + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "value": return _$kvoFirstSlot_Node + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Node {
          case 0: return "value"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Node, capture) {
          case (0, \Node.value): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Node, access) {
          case (0, _): return access.visit(\Node._value, get: { $0._value }, set: { $0._value = $1 }, modify: { $0(&$1._value) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Node.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Node.value: return "value"
          case \Node.level: return "level"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("level", \Node.level): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Node: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("weak and unowned properties are observable: their storage keeps the ownership")
  func weakAndUnowned() {
    assertMacro {
      """
      @KeyValueObservable
      final class Node {
        weak var parent: Node?
        unowned var owner: Node
        unowned(unsafe) var last: Node
      }
      """
    } expansion: {
      #"""
      final class Node {
        weak var parent: Node? {
          @storageRestrictions(initializes: _parent)
          init(initialValue) {
            _parent = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Node + 0)
            return _parent
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _parent = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 0, to: newValue, get: { $0._parent }, set: { $0._parent = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 0) else {
              yield &_parent
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 0, get: { $0._parent }) else {
              var _$kvoValue = _parent
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 0, to: _$kvoValue, get: { $0._parent }, set: { $0._parent = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 0, get: { $0._parent }) }
            yield &_parent
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) weak var _parent: Node?
        unowned var owner: Node {
          @storageRestrictions(initializes: _owner)
          init(initialValue) {
            _owner = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Node + 1)
            return _owner
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _owner = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 1, to: newValue, get: { $0._owner }, set: { $0._owner = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 1) else {
              yield &_owner
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 1, get: { $0._owner }) else {
              var _$kvoValue = _owner
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 1, to: _$kvoValue, get: { $0._owner }, set: { $0._owner = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 1, get: { $0._owner }) }
            yield &_owner
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) unowned var _owner: Node
        unowned(unsafe) var last: Node {
          @storageRestrictions(initializes: _last)
          init(initialValue) {
            _last = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Node + 2)
            return _last
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _last = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 2, to: newValue, get: { $0._last }, set: { $0._last = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 2) else {
              yield &_last
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 2, get: { $0._last }) else {
              var _$kvoValue = _last
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 2, to: _$kvoValue, get: { $0._last }, set: { $0._last = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 2, get: { $0._last }) }
            yield &_last
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) unowned(unsafe) var _last: Node

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Node: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Node + 3 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Node.parent: return _$kvoFirstSlot_Node + 0
          case \Node.owner: return _$kvoFirstSlot_Node + 1
          case \Node.last: return _$kvoFirstSlot_Node + 2
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "parent": return _$kvoFirstSlot_Node + 0
          case "owner": return _$kvoFirstSlot_Node + 1
          case "last": return _$kvoFirstSlot_Node + 2
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Node {
          case 0: return "parent"
          case 1: return "owner"
          case 2: return "last"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Node, capture) {
          case (0, \Node.parent): return capture.keyPath
          case (1, \Node.owner): return capture.keyPath
          case (2, \Node.last): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Node, access) {
          case (0, _): return access.visit(\Node._parent, get: { $0._parent }, set: { $0._parent = $1 }, modify: { $0(&$1._parent) })
          case (1, _): return access.visit(\Node._owner, get: { $0._owner }, set: { $0._owner = $1 }, modify: { $0(&$1._owner) })
          case (2, _): return access.visit(\Node._last, get: { $0._last }, set: { $0._last = $1 }, modify: { $0(&$1._last) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Node.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Node.parent: return "parent"
          case \Node.owner: return "owner"
          case \Node.last: return "last"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Node: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("a property next to a declaration of its storage's name is an error on that declaration, not a cascade")
  func backingStorageCollision() {
    assertMacro {
      """
      @KeyValueObservable
      final class Account {
        var name = ""
        var _name = ""
        var balance = 0
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Account {
        var name = ""
        var _name = ""
            ┬────
            ╰─ 🛑 '_name' is the name '@KeyValueObservable' gives the storage of 'name'; rename one of them, or mark 'name' '@KeyValueIgnored'
        var balance = 0
      }
      """
    }
  }

  @Test("a class declared inside a function is refused with one error")
  func localClass() {
    assertMacro {
      """
      func makeModel() {
        @KeyValueObservable
        final class Local {
          var name = ""
        }
      }
      """
    } diagnostics: {
      """
      func makeModel() {
        @KeyValueObservable
        ┬──────────────────
        ╰─ 🛑 '@KeyValueObservable' cannot be used on a class declared inside a function or closure; declare the class at file scope or inside another type
        final class Local {
          var name = ""
        }
      }
      """
    }
  }

  @Test("Codable: CodingKeys under the properties' names; a class's own coding key named after a property is diagnosed with a fix-it")
  func codable() {
    assertMacro {
      """
      @KeyValueObservable
      final class Doc: Codable {
        var title = ""
        var `default` = 0
        let id: Int
        let kind = "doc"
        @KeyValueIgnored var cache = 0
        var summary: String { title }
      }
      """
    } expansion: {
      #"""
      final class Doc: Codable {
        var title {
          @storageRestrictions(initializes: _title)
          init(initialValue) {
            _title = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Doc + 0)
            return _title
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _title = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Doc + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Doc + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 0, get: { $0._title }) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Doc + 0, to: _$kvoValue, get: { $0._title }, set: { $0._title = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 0, get: { $0._title }) }
            yield &_title
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _title = ""
        var `default` {
          @storageRestrictions(initializes: _default)
          init(initialValue) {
            _default = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Doc + 1)
            return _default
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _default = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Doc + 1, to: newValue, get: { $0._default }, set: { $0._default = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Doc + 1) else {
              yield &_default
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 1, get: { $0._default }) else {
              var _$kvoValue = _default
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Doc + 1, to: _$kvoValue, get: { $0._default }, set: { $0._default = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 1, get: { $0._default }) }
            yield &_default
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _default = 0
        let id: Int
        let kind = "doc"
        var cache = 0
        var summary: String { title }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Doc: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Doc + 2 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Doc.title: return _$kvoFirstSlot_Doc + 0
          case \Doc.default: return _$kvoFirstSlot_Doc + 1
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "title": return _$kvoFirstSlot_Doc + 0
          case "default": return _$kvoFirstSlot_Doc + 1
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Doc {
          case 0: return "title"
          case 1: return "default"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Doc, capture) {
          case (0, \Doc.title): return capture.keyPath
          case (1, \Doc.default): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Doc, access) {
          case (0, _): return access.visit(\Doc._title, get: { $0._title }, set: { $0._title = $1 }, modify: { $0(&$1._title) })
          case (1, _): return access.visit(\Doc._default, get: { $0._default }, set: { $0._default = $1 }, modify: { $0(&$1._default) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Doc.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Doc.title: return "title"
          case \Doc.default: return "default"
          case \Doc.id: return "id"
          case \Doc.kind: return "kind"
          case \Doc.cache: return "cache"
          case \Doc.summary: return "summary"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("id", \Doc.id): return capture.keyPath
          case ("kind", \Doc.kind): return capture.keyPath
          case ("cache", \Doc.cache): return capture.keyPath
          case ("summary", \Doc.summary): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? {
          switch keyPath {
          case \Doc.summary: return { @MainActor (object: Doc) -> String in object.summary }
          default: return nil
          }
        }

        private enum CodingKeys: Swift.String, Swift.CodingKey {
          case _title = "title"
        case _default = "default"
        case id
        case cache
        }
      }

      extension Doc: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
    assertMacro {
      """
      @KeyValueObservable
      final class Renamed: Codable {
        var title = ""
        var body = ""
        enum CodingKeys: String, CodingKey {
          case title = "heading"
          case body
        }
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Renamed: Codable {
        var title = ""
        var body = ""
        enum CodingKeys: String, CodingKey {
          case title = "heading"
               ┬────
               ╰─ 🛑 'title' is stored as '_title' in a '@KeyValueObservable' class, and the synthesized Codable conformance matches coding keys to storage: name this case '_title', with the key it encodes under as its raw value
                  ✏️ Name the case after the property's storage
          case body
               ┬───
               ╰─ 🛑 'body' is stored as '_body' in a '@KeyValueObservable' class, and the synthesized Codable conformance matches coding keys to storage: name this case '_body', with the key it encodes under as its raw value
                  ✏️ Name the case after the property's storage
        }
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Renamed: Codable {
        var title = ""
        var body = ""
        enum CodingKeys: String, CodingKey {
          case _title = "heading"
          case _body = "body"
        }
      }
      """
    } expansion: {
      #"""
      final class Renamed: Codable {
        var title = ""

        @exclusivity(unchecked) private final var _title = ""
        var body = ""

        @exclusivity(unchecked) private final var _body = ""
        enum CodingKeys: String, CodingKey {
          case _title = "heading"
          case _body = "body"
        }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Renamed: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Renamed + 2 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Renamed.title: return _$kvoFirstSlot_Renamed + 0
          case \Renamed.body: return _$kvoFirstSlot_Renamed + 1
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "title": return _$kvoFirstSlot_Renamed + 0
          case "body": return _$kvoFirstSlot_Renamed + 1
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Renamed {
          case 0: return "title"
          case 1: return "body"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Renamed, capture) {
          case (0, \Renamed.title): return capture.keyPath
          case (1, \Renamed.body): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Renamed, access) {
          case (0, _): return access.visit(\Renamed._title, get: { $0._title }, set: { $0._title = $1 }, modify: { $0(&$1._title) })
          case (1, _): return access.visit(\Renamed._body, get: { $0._body }, set: { $0._body = $1 }, modify: { $0(&$1._body) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Renamed.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Renamed.title: return "title"
          case \Renamed.body: return "body"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Renamed: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("several properties in one declaration, or a tuple pattern, are errors")
  func unsupportedBindings() {
    assertMacro {
      """
      @KeyValueObservable
      final class Pair {
        var first = 0, second = 0
        var (x, y) = (0, 0)
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Pair {
        var first = 0, second = 0
        ┬────────────────────────
        ╰─ 🛑 '@KeyValueObservable' cannot rewrite several properties declared in one 'var'; declare each on its own line
        var (x, y) = (0, 0)
            ┬─────
            ╰─ 🛑 '@KeyValueObservable' cannot rewrite a property bound by a pattern; declare each property with its own name
      }
      """
    }
  }

  @Test("a stored property inside #if stays plain, with a warning")
  func conditionalCompilation() {
    assertMacro {
      """
      @KeyValueObservable
      final class Build {
        var name = ""
        #if DEBUG
        var trace = 0
        #endif
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Build {
        var name = ""
        #if DEBUG
        var trace = 0
        ┬────────────
        ╰─ ⚠️ a property inside '#if' is not made observable; declare it outside the '#if' block to observe it
        #endif
      }
      """
    } expansion: {
      #"""
      final class Build {
        var name {
          @storageRestrictions(initializes: _name)
          init(initialValue) {
            _name = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Build + 0)
            return _name
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _name = newValue
              return
            }
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Build + 0, to: newValue, get: { $0._name }, set: { $0._name = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Build + 0) else {
              yield &_name
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Build + 0, get: { $0._name }) else {
              var _$kvoValue = _name
              yield &_$kvoValue
              _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Build + 0, to: _$kvoValue, get: { $0._name }, set: { $0._name = $1 })
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Build + 0, get: { $0._name }) }
            yield &_name
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _name = ""
        #if DEBUG
        var trace = 0
        #endif

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Build: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Build + 1 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Build.name: return _$kvoFirstSlot_Build + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "name": return _$kvoFirstSlot_Build + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Build {
          case 0: return "name"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Build, capture) {
          case (0, \Build.name): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Build, access) {
          case (0, _): return access.visit(\Build._name, get: { $0._name }, set: { $0._name = $1 }, modify: { $0(&$1._name) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Build.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Build.name: return "name"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Build: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}

@Suite(.macros(rootClassMacros, record: .missing))
struct ObservationDiagnosticsTests {
  @Test("@Observable on the same class is an error, with a fix-it that removes it")
  func observableMacro() {
    assertMacro {
      """
      @Observable @KeyValueObservable
      final class Sheet {
        var title = ""
      }
      """
    } diagnostics: {
      """
      @Observable @KeyValueObservable
      ┬──────────
      ╰─ 🛑 '@Observable' and '@KeyValueObservable' cannot both rewrite this class's properties; remove '@Observable' and declare the class 'Observable' instead: '@KeyValueObservable' then makes it tracked by Swift Observation too
         ✏️ Remove '@Observable'
      final class Sheet {
        var title = ""
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Sheet {
        var title = ""
      }
      """
    } expansion: {
      #"""
      final class Sheet {
        var title = ""

        @exclusivity(unchecked) private final var _title = ""

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 1 }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Sheet.title: return _$kvoFirstSlot_Sheet + 0
          default: break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "title": return _$kvoFirstSlot_Sheet + 0
          default: return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Sheet {
          case 0: return "title"
          default: return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Sheet, capture) {
          case (0, \Sheet.title): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoAccessStorage(ofSlot slot: Swift.Int, _ access: KeyValueObserving._KeyValueStorageAccess) -> Swift.Bool {
          switch (slot - _$kvoFirstSlot_Sheet, access) {
          case (0, _): return access.visit(\Sheet._title, get: { $0._title }, set: { $0._title = $1 }, modify: { $0(&$1._title) })
          default: return false
          }
        }

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Sheet.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Sheet.title: return "title"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? { nil }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("@ObservationIgnored is an error, with a fix-it to @KeyValueIgnored")
  func observationIgnored() {
    assertMacro {
      """
      @KeyValueObservable
      final class Sheet: Observable {
        @ObservationIgnored var cache = 0
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Sheet: Observable {
        @ObservationIgnored var cache = 0
        ┬──────────────────
        ╰─ 🛑 '@ObservationIgnored' has no effect in a '@KeyValueObservable' class; use '@KeyValueIgnored', which keeps the property out of both key-value observing and Swift Observation
           ✏️ Use '@KeyValueIgnored'
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Sheet: Observable {
        @KeyValueIgnored var cache = 0
      }
      """
    } expansion: {
      #"""
      final class Sheet: Observable {
        var cache = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage ?? Swift.Unmanaged.passUnretained(_$kvoRegistrar.makeStorage(for: self)) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 0 }

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

        nonisolated class var _$kvoMarkedType: Swift.AnyObject.Type { Sheet.self }

        nonisolated class func _$kvoName(for keyPath: Swift.AnyKeyPath) -> Swift.String? {
          switch keyPath {
          case \Sheet.cache: return "cache"
          default: return nil
          }
        }

        nonisolated class func _$kvoIsReadOnly(forKey key: Swift.String) -> Swift.Bool { false }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("cache", \Sheet.cache): return capture.keyPath
          default: return nil
          }
        }

        nonisolated class func _$kvoGetter(for keyPath: Swift.AnyKeyPath) -> Any? { nil }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          switch slot - Self._$kvoFirstSlot_Sheet {
          default: _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot))
          }
        }

        nonisolated final func _$kvoObservedMutation<Result>(ofSlot slot: Swift.Int, _ mutation: () -> Result) -> Result {
          switch slot - Self._$kvoFirstSlot_Sheet {
          default: return _$kvoObservedMutationByEvents(ofSlot: slot, mutation)
          }
        }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
