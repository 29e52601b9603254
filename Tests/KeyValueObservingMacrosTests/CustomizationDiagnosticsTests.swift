import MacroTesting
import Testing

/// Customisation methods written as Objective-C writes them, which
/// `KeyValueObservingCustomization` never calls: each a warning naming the
/// signature that works.
@Suite(.macros(rootClassMacros, record: .missing))
struct CustomizationDiagnosticsTests {
  @Test("a String key: a warning with the requirement's signature, and a fix-it that writes it")
  func stringKeys() {
    assertMacro {
      """
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        var last = ""
        var fullName: String { first + " " + last }
        static func keyPathsAffectingValue(for key: String) -> Set<String> {
          key == "fullName" ? ["first", "last"] : []
        }
        static func automaticallyNotifiesObservers(for key: String) -> Bool {
          key != "last"
        }
      }
      """
    } diagnostics: {
      #"""
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        var last = ""
        var fullName: String { first + " " + last }
        static func keyPathsAffectingValue(for key: String) -> Set<String> {
                    ┬─────────────────────
                    ╰─ ⚠️ 'keyPathsAffectingValue(for:)' with a String key is never called: 'KeyValueObservingCustomization' asks for 'static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>', whose key is a key path (compare it with one: 'key == \Person.first')
                       ✏️ Use the requirement's name and signature, with a key path for a key
          key == "fullName" ? ["first", "last"] : []
        }
        static func automaticallyNotifiesObservers(for key: String) -> Bool {
                    ┬─────────────────────────────
                    ╰─ ⚠️ 'automaticallyNotifiesObservers(for:)' with a String key is never called: 'KeyValueObservingCustomization' asks for 'static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool', whose key is a key path (compare it with one: 'key == \Person.first')
                       ✏️ Use the requirement's name and signature, with a key path for a key
          key != "last"
        }
      }
      """#
    } fixes: {
      """
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        var last = ""
        var fullName: String { first + " " + last }
        static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
          key == "fullName" ? ["first", "last"] : []
        }
        static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
          key != "last"
        }
      }
      """
    } expansion: {
      #"""
      final class Person: KeyValueObservingCustomization {
        var first = ""

        @exclusivity(unchecked) private final var _first = ""
        var last = ""

        @exclusivity(unchecked) private final var _last = ""
        var fullName: String { first + " " + last }
        static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
          key == "fullName" ? ["first", "last"] : []
        }
        static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
          key != "last"
        }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Person: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Person + 2 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Person }

        private nonisolated static let _$kvoKeys_Person = KeyValueObserving._KeyValueKeyTable(Person.self) {
          if case (\Person.first, \Person?.?.first) = $0.stored("first", get: { Swift.unsafeDowncast($0, to: Person.self)._first }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._first) }) {}
          if case (\Person.last, \Person?.?.last) = $0.stored("last", get: { Swift.unsafeDowncast($0, to: Person.self)._last }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._last) }) {}
          if case \Person.fullName = $0.computed("fullName", { (object: Person) in object.fullName }) {}
        }
      }

      extension Person: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("Objective-C's names: a warning, and a fix-it to the Swift requirement")
  func objectiveCNames() {
    assertMacro {
      """
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
          []
        }
        static func automaticallyNotifiesObservers(forKey key: String) -> Bool {
          true
        }
      }
      """
    } diagnostics: {
      """
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
                   ┬──────────────────────────────
                   ╰─ ⚠️ 'keyPathsForValuesAffectingValue(forKey:)' is Objective-C's name and is never called here: write 'static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>' in a class that conforms to 'KeyValueObservingCustomization'
                      ✏️ Use the requirement's name and signature, with a key path for a key
          []
        }
        static func automaticallyNotifiesObservers(forKey key: String) -> Bool {
                    ┬─────────────────────────────
                    ╰─ ⚠️ 'automaticallyNotifiesObservers(forKey:)' is Objective-C's name and is never called here: write 'static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool' in a class that conforms to 'KeyValueObservingCustomization'
                       ✏️ Use the requirement's name and signature, with a key path for a key
          true
        }
      }
      """
    } fixes: {
      """
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        class func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
          []
        }
        static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
          true
        }
      }
      """
    } expansion: {
      #"""
      final class Person: KeyValueObservingCustomization {
        var first = ""

        @exclusivity(unchecked) private final var _first = ""
        class func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
          []
        }
        static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
          true
        }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Person: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Person + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Person }

        private nonisolated static let _$kvoKeys_Person = KeyValueObserving._KeyValueKeyTable(Person.self) {
          if case (\Person.first, \Person?.?.first) = $0.stored("first", get: { Swift.unsafeDowncast($0, to: Person.self)._first }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._first) }) {}
        }
      }

      extension Person: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("Objective-C's methods for one key: a warning naming the key, no fix-it")
  func perKeyMethods() {
    assertMacro {
      """
      @KeyValueObservable
      final class Person {
        var first = ""
        var fullName: String { first }
        static func keyPathsForValuesAffectingFullName() -> Set<String> {
          ["first"]
        }
        static func automaticallyNotifiesObserversOfFirst() -> Bool {
          false
        }
      }
      """
    } diagnostics: {
      #"""
      @KeyValueObservable
      final class Person {
        var first = ""
        var fullName: String { first }
        static func keyPathsForValuesAffectingFullName() -> Set<String> {
                    ┬─────────────────────────────────
                    ╰─ ⚠️ 'keyPathsForValuesAffectingFullName()' is Objective-C's method for the key 'fullName' and is never called here: write 'static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>', answering for 'key == \Person.fullName', in a class that conforms to 'KeyValueObservingCustomization'
          ["first"]
        }
        static func automaticallyNotifiesObserversOfFirst() -> Bool {
                    ┬────────────────────────────────────
                    ╰─ ⚠️ 'automaticallyNotifiesObserversOfFirst()' is Objective-C's method for the key 'first' and is never called here: write 'static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool', answering for 'key == \Person.first', in a class that conforms to 'KeyValueObservingCustomization'
          false
        }
      }
      """#
    } expansion: {
      #"""
      final class Person {
        var first {
          @storageRestrictions(initializes: _first)
          init(initialValue) {
            _first = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Person + 0)
            return _first
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _first = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 0, to: newValue, get: { $0._first }, set: { $0._first = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Person + 0) else {
              yield &_first
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) else {
              var _$kvoValue = _first
              defer { self.first = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) }
            yield &_first
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _first = ""
        var fullName: String { first }
        static func keyPathsForValuesAffectingFullName() -> Set<String> {
          ["first"]
        }
        static func automaticallyNotifiesObserversOfFirst() -> Bool {
          false
        }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Person: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Person + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Person }

        private nonisolated static let _$kvoKeys_Person = KeyValueObserving._KeyValueKeyTable(Person.self) {
          if case (\Person.first, \Person?.?.first) = $0.stored("first", get: { Swift.unsafeDowncast($0, to: Person.self)._first }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._first) }) {}
          if case \Person.fullName = $0.computed("fullName", { (object: Person) in object.fullName }) {}
        }
      }

      extension Person: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("the requirements as Swift declares them, module names included: no diagnostic")
  func rightSignatures() {
    assertMacro {
      """
      @KeyValueObservable
      final class Person: KeyValueObservingCustomization {
        var first = ""
        static func keyPathsAffectingValue(for key: Swift.AnyKeyPath) -> Swift.Set<Swift.AnyKeyPath> {
          []
        }
        static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
          true
        }
        func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
          []
        }
      }
      """
    } expansion: {
      #"""
      final class Person: KeyValueObservingCustomization {
        var first {
          @storageRestrictions(initializes: _first)
          init(initialValue) {
            _first = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Person + 0)
            return _first
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _first = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Person + 0, to: newValue, get: { $0._first }, set: { $0._first = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Person + 0) else {
              yield &_first
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) else {
              var _$kvoValue = _first
              defer { self.first = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Person + 0) }
            yield &_first
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _first = ""
        static func keyPathsAffectingValue(for key: Swift.AnyKeyPath) -> Swift.Set<Swift.AnyKeyPath> {
          []
        }
        static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
          true
        }
        func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
          []
        }

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Person: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Person + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Person }

        private nonisolated static let _$kvoKeys_Person = KeyValueObserving._KeyValueKeyTable(Person.self) {
          if case (\Person.first, \Person?.?.first) = $0.stored("first", get: { Swift.unsafeDowncast($0, to: Person.self)._first }, modify: { $0(&Swift.unsafeDowncast($1, to: Person.self)._first) }) {}
        }
      }

      extension Person: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
