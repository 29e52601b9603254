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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Point }

        private nonisolated static let _$kvoKeys_Point = KeyValueObserving._KeyValueKeyTable(Point.self) {
          if case \Point.x = $0.stored("x", get: { Swift.unsafeDowncast($0, to: Point.self)._x }, modify: { $0(&Swift.unsafeDowncast($1, to: Point.self)._x) }) {}
        }
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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Bank }

        private nonisolated static let _$kvoKeys_Bank = KeyValueObserving._KeyValueKeyTable(Bank.self) {
          if case \Bank.balance = $0.stored("balance", get: { Swift.unsafeDowncast($0, to: Bank.self)._balance }, modify: { $0(&Swift.unsafeDowncast($1, to: Bank.self)._balance) }) {}
        }
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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Node }

        private nonisolated static let _$kvoKeys_Node = KeyValueObserving._KeyValueKeyTable(Node.self) {
          if case \Node.value = $0.stored("value", get: { Swift.unsafeDowncast($0, to: Node.self)._value }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._value) }) {}
          if case \Node.level = $0.other("level") {}
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
            _$kvoObserved.notifyingSet(self, slot: Self._$kvoFirstSlot_Node + 0, to: newValue, get: { $0._parent }, set: { $0._parent = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved.modifiesInPlace(slot: Self._$kvoFirstSlot_Node + 0) else {
              yield &_parent
              return
            }
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 0) else {
              var _$kvoValue = _parent
              yield &_$kvoValue
              self.parent = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 0) }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 1) else {
              var _$kvoValue = _owner
              yield &_$kvoValue
              self.owner = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 1) }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 2) else {
              var _$kvoValue = _last
              yield &_$kvoValue
              self.last = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Node + 2) }
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
          if case \Node.parent = $0.stored("parent", get: { Swift.unsafeDowncast($0, to: Node.self)._parent }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._parent) }) {}
          if case \Node.owner = $0.stored("owner", get: { Swift.unsafeDowncast($0, to: Node.self)._owner }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._owner) }) {}
          if case \Node.last = $0.stored("last", get: { Swift.unsafeDowncast($0, to: Node.self)._last }, modify: { $0(&Swift.unsafeDowncast($1, to: Node.self)._last) }) {}
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 0) else {
              var _$kvoValue = _title
              yield &_$kvoValue
              self.title = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 0) }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 1) else {
              var _$kvoValue = _default
              yield &_$kvoValue
              self.default = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 1) }
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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Doc }

        private nonisolated static let _$kvoKeys_Doc = KeyValueObserving._KeyValueKeyTable(Doc.self) {
          if case \Doc.title = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Doc.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Doc.self)._title) }) {}
          if case \Doc.default = $0.stored("default", get: { Swift.unsafeDowncast($0, to: Doc.self)._default }, modify: { $0(&Swift.unsafeDowncast($1, to: Doc.self)._default) }) {}
          if case \Doc.id = $0.constant("id") {}
          if case \Doc.kind = $0.constant("kind") {}
          if case \Doc.cache = $0.other("cache") {}
          if case \Doc.summary = $0.computed("summary", { @MainActor (object: Doc) in object.summary }) {}
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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Renamed }

        private nonisolated static let _$kvoKeys_Renamed = KeyValueObserving._KeyValueKeyTable(Renamed.self) {
          if case \Renamed.title = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Renamed.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Renamed.self)._title) }) {}
          if case \Renamed.body = $0.stored("body", get: { Swift.unsafeDowncast($0, to: Renamed.self)._body }, modify: { $0(&Swift.unsafeDowncast($1, to: Renamed.self)._body) }) {}
        }
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
            guard _$kvoObserved.willModifyInPlace(self, slot: Self._$kvoFirstSlot_Build + 0) else {
              var _$kvoValue = _name
              yield &_$kvoValue
              self.name = _$kvoValue
              return
            }
            defer { _$kvoObserved.didModifyInPlace(self, slot: Self._$kvoFirstSlot_Build + 0) }
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
          if case \Build.name = $0.stored("name", get: { Swift.unsafeDowncast($0, to: Build.self)._name }, modify: { $0(&Swift.unsafeDowncast($1, to: Build.self)._name) }) {}
        }
      }

      extension Build: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}

@Suite(.macros(rootClassMacros, record: .missing))
struct ObservationDiagnosticsTests {
  @Test("a main-actor class's own access or withMutation must be nonisolated, with a fix-it")
  func isolatedObservationHooks() {
    assertMacro {
      """
      @MainActor
      @KeyValueObservable
      final class Sheet: Observable {
        var title = ""
        func access<Member>(keyPath: KeyPath<Sheet, Member>) {
          _$kvoObservationRegistrar.access(self, keyPath: keyPath)
        }
        nonisolated func withMutation<Member, T>(keyPath: KeyPath<Sheet, Member>, _ mutation: () throws -> T) rethrows -> T {
          try _$kvoObservationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }
      """
    } diagnostics: {
      """
      @MainActor
      @KeyValueObservable
      final class Sheet: Observable {
        var title = ""
        func access<Member>(keyPath: KeyPath<Sheet, Member>) {
             ┬─────
             ╰─ 🛑 'access(keyPath:)' must be 'nonisolated' for '@KeyValueObservable' to call it: reads and changes are reported from whatever thread makes them, as '@Observable' declares its own 'nonisolated'
                ✏️ Declare it 'nonisolated'
          _$kvoObservationRegistrar.access(self, keyPath: keyPath)
        }
        nonisolated func withMutation<Member, T>(keyPath: KeyPath<Sheet, Member>, _ mutation: () throws -> T) rethrows -> T {
          try _$kvoObservationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }
      """
    } fixes: {
      """
      @MainActor
      @KeyValueObservable
      final class Sheet: Observable {
        var title = ""
        nonisolated func access<Member>(keyPath: KeyPath<Sheet, Member>) {
          _$kvoObservationRegistrar.access(self, keyPath: keyPath)
        }
        nonisolated func withMutation<Member, T>(keyPath: KeyPath<Sheet, Member>, _ mutation: () throws -> T) rethrows -> T {
          try _$kvoObservationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }
      }
      """
    } expansion: {
      #"""
      @MainActor
      final class Sheet: Observable {
        var title = ""

        @exclusivity(unchecked) private final var _title = ""
        nonisolated func access<Member>(keyPath: KeyPath<Sheet, Member>) {
          _$kvoObservationRegistrar.access(self, keyPath: keyPath)
        }
        nonisolated func withMutation<Member, T>(keyPath: KeyPath<Sheet, Member>, _ mutation: () throws -> T) rethrows -> T {
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

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

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

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Sheet }

        private nonisolated static let _$kvoKeys_Sheet = KeyValueObserving._KeyValueKeyTable(Sheet.self) {
          if case \Sheet.title = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
        }
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

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storageMadeOnFirstUse(for: self) }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Sheet: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Sheet + 0 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Sheet }

        private nonisolated static let _$kvoKeys_Sheet = KeyValueObserving._KeyValueKeyTable(Sheet.self) {
          if case \Sheet.cache = $0.other("cache") {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) { _$kvoObservationRegistrar._$kvoReport(event, self, type(of: self)._$kvoKeyPath(forSlot: slot)) }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
