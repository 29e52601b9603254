import MacroTesting
import Testing

/// Properties the macro leaves plain, refuses, or keeps with their
/// ownership, and what it says about each.
@Suite(.macros(rootClassMacros, record: .missing))
struct PropertyDiagnosticsTests {
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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Node }

        private nonisolated static let _$kvoKeys_Node = KeyValueObserving._KeyValueKeyTable(Node.self) {
          if case (\Node.value, \Node?.?.value) = $0.stored("value", get: { Swift.unsafeDowncast($0, to: Node.self)._value }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._value) }) {}
          if case \Node.level = $0.unannounced("level") {}
        }
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
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 0, to: newValue, get: { $0._parent }, set: { $0._parent = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 0) else {
              yield &_parent
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 0) else {
              var _$kvoValue = _parent
              defer { self.parent = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 0) }
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
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 1, to: newValue, get: { $0._owner }, set: { $0._owner = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 1) else {
              yield &_owner
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 1) else {
              var _$kvoValue = _owner
              defer { self.owner = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 1) }
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
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 2, to: newValue, get: { $0._last }, set: { $0._last = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 2) else {
              yield &_last
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 2) else {
              var _$kvoValue = _last
              defer { self.last = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 2) }
            yield &_last
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) unowned(unsafe) var _last: Node

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Node: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Node + 3 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Node }

        private nonisolated static let _$kvoKeys_Node = KeyValueObserving._KeyValueKeyTable(Node.self) {
          if case (\Node.parent, \Node?.?.parent) = $0.stored("parent", get: { Swift.unsafeDowncast($0, to: Node.self)._parent }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._parent) }) {}
          if case (\Node.owner, \Node?.?.owner) = $0.stored("owner", get: { Swift.unsafeDowncast($0, to: Node.self)._owner }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._owner) }) {}
          if case (\Node.last, \Node?.?.last) = $0.stored("last", get: { Swift.unsafeDowncast($0, to: Node.self)._last }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._last) }) {}
        }
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
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Build + 0, to: newValue, get: { $0._name }, set: { $0._name = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Build + 0) else {
              yield &_name
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Build + 0) else {
              var _$kvoValue = _name
              defer { self.name = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Build + 0) }
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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Build }

        private nonisolated static let _$kvoKeys_Build = KeyValueObserving._KeyValueKeyTable(Build.self) {
          if case (\Build.name, \Build?.?.name) = $0.stored("name", get: { Swift.unsafeDowncast($0, to: Build.self)._name }, modify: { $0(&Swift.unsafeDowncast($1, to: Build.self)._name) }) {}
        }
      }

      extension Build: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
