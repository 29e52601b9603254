import MacroTesting
import Testing

/// A class that declares `Codable`: coding keys under the properties' names.
@Suite(.macros(rootClassMacros, record: .missing))
struct CodableExpansionTests {
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
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Doc + 0, to: newValue, get: { $0._title }, set: { $0._title = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Doc + 0) else {
              yield &_title
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 0) else {
              var _$kvoValue = _title
              defer { self.title = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 0) }
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
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Doc + 1, to: newValue, get: { $0._default }, set: { $0._default = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Doc + 1) else {
              yield &_default
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 1) else {
              var _$kvoValue = _default
              defer { self.default = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Doc + 1) }
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
          if case (\Doc.title, \Doc?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Doc.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Doc.self)._title) }) {}
          if case (\Doc.default, \Doc?.?.default) = $0.stored("default", get: { Swift.unsafeDowncast($0, to: Doc.self)._default }, modify: { $0(&Swift.unsafeDowncast($1, to: Doc.self)._default) }) {}
          if case \Doc.id = $0.constant("id") {}
          if case \Doc.kind = $0.constant("kind") {}
          if case \Doc.cache = $0.unannounced("cache") {}
          if case \Doc.summary = $0.computed("summary", { (object: Doc) in object.summary }) {}
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
          if case (\Renamed.title, \Renamed?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Renamed.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Renamed.self)._title) }) {}
          if case (\Renamed.body, \Renamed?.?.body) = $0.stored("body", get: { Swift.unsafeDowncast($0, to: Renamed.self)._body }, modify: { $0(&Swift.unsafeDowncast($1, to: Renamed.self)._body) }) {}
        }
      }

      extension Renamed: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
