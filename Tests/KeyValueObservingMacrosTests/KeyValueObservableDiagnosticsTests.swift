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

        @exclusivity(unchecked) private var _x = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? {
          _$kvoRegistrar.storage
        }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage {
          _$kvoRegistrar.makeStorage(for: self)
        }

        private nonisolated static var _$kvoFirstSlot_Point: Swift.Int {
          0
        }

        nonisolated class var _$kvoKeyCount: Swift.Int {
          _$kvoFirstSlot_Point + 1
        }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Point.x:
            return _$kvoFirstSlot_Point + 0
          default:
            break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "x":
            return _$kvoFirstSlot_Point + 0
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Point {
          case 0:
            return "x"
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Point, capture) {
          case (0, \Point.x):
            return capture.keyPath
          default:
            return nil
          }
        }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          default:
            return nil
          }
        }
      }

      extension Point: nonisolated KeyValueObserving.KeyValueObservable {
      }
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

        @exclusivity(unchecked) private var _balance = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? {
          _$kvoRegistrar.storage
        }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage {
          _$kvoRegistrar.makeStorage(for: self)
        }

        private nonisolated static var _$kvoFirstSlot_Bank: Swift.Int {
          0
        }

        nonisolated class var _$kvoKeyCount: Swift.Int {
          _$kvoFirstSlot_Bank + 1
        }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Bank.balance:
            return _$kvoFirstSlot_Bank + 0
          default:
            break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "balance":
            return _$kvoFirstSlot_Bank + 0
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Bank {
          case 0:
            return "balance"
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Bank, capture) {
          case (0, \Bank.balance):
            return capture.keyPath
          default:
            return nil
          }
        }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          default:
            return nil
          }
        }
      }

      extension Bank: nonisolated KeyValueObserving.KeyValueObservable {
      }
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

  @Test("weak, unowned and property-wrapped properties stay plain, with a warning and a fix-it")
  func unsupportedProperties() {
    assertMacro {
      """
      @KeyValueObservable
      final class Node {
        weak var parent: Node?
        unowned var owner: Node
        @Clamped var level = 0
        var value = 0
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Node {
        weak var parent: Node?
        ┬─────────────────────
        ╰─ ⚠️ a 'weak' or 'unowned' property cannot be made observable; it stays a plain property
           ✏️ Mark it '@KeyValueIgnored'
        unowned var owner: Node
        ┬──────────────────────
        ╰─ ⚠️ a 'weak' or 'unowned' property cannot be made observable; it stays a plain property
           ✏️ Mark it '@KeyValueIgnored'
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
        @KeyValueIgnored weak var parent: Node?
        @KeyValueIgnored unowned var owner: Node
        @KeyValueIgnored @Clamped var level = 0
        var value = 0
      }
      """
    } expansion: {
      #"""
      final class Node {
        weak var parent: Node?
        unowned var owner: Node
        @Clamped var level = 0
        var value = 0

        @exclusivity(unchecked) private var _value = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? {
          _$kvoRegistrar.storage
        }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage {
          _$kvoRegistrar.makeStorage(for: self)
        }

        private nonisolated static var _$kvoFirstSlot_Node: Swift.Int {
          0
        }

        nonisolated class var _$kvoKeyCount: Swift.Int {
          _$kvoFirstSlot_Node + 1
        }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Node.value:
            return _$kvoFirstSlot_Node + 0
          default:
            break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "value":
            return _$kvoFirstSlot_Node + 0
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Node {
          case 0:
            return "value"
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Node, capture) {
          case (0, \Node.value):
            return capture.keyPath
          default:
            return nil
          }
        }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          case ("parent", \Node.parent):
            return capture.keyPath
          case ("owner", \Node.owner):
            return capture.keyPath
          case ("level", \Node.level):
            return capture.keyPath
          default:
            return nil
          }
        }
      }

      extension Node: nonisolated KeyValueObserving.KeyValueObservable {
      }
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Build + 0, to: newValue, get: {
                $0._name
              }, set: {
                $0._name = $1
              })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage,
              !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Build + 0)
            else {
              yield &_name
              return
            }
            var _$kvoValue = _name
            yield &_$kvoValue
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Build + 0, to: _$kvoValue, get: {
                $0._name
              }, set: {
                $0._name = $1
              })
          }
        }

        @exclusivity(unchecked) private var _name = ""
        #if DEBUG
        var trace = 0
        #endif

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? {
          _$kvoRegistrar.storage
        }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage {
          _$kvoRegistrar.makeStorage(for: self)
        }

        private nonisolated static var _$kvoFirstSlot_Build: Swift.Int {
          0
        }

        nonisolated class var _$kvoKeyCount: Swift.Int {
          _$kvoFirstSlot_Build + 1
        }

        nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          switch keyPath {
          case \Build.name:
            return _$kvoFirstSlot_Build + 0
          default:
            break
          }
          return nil
        }

        nonisolated class func _$kvoSlot(forKey key: Swift.String) -> Swift.Int? {
          switch key {
          case "name":
            return _$kvoFirstSlot_Build + 0
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKey(forSlot slot: Swift.Int) -> Swift.String? {
          switch slot - _$kvoFirstSlot_Build {
          case 0:
            return "name"
          default:
            return nil
          }
        }

        nonisolated class func _$kvoKeyPath(forSlot slot: Swift.Int) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (slot - _$kvoFirstSlot_Build, capture) {
          case (0, \Build.name):
            return capture.keyPath
          default:
            return nil
          }
        }

        nonisolated class func _$kvoOtherKeyPath(forKey key: Swift.String) -> Swift.AnyKeyPath? {
          let capture = KeyValueObserving._KeyPathCapture()
          switch (key, capture) {
          default:
            return nil
          }
        }
      }

      extension Build: nonisolated KeyValueObserving.KeyValueObservable {
      }
      """#
    }
  }
}
