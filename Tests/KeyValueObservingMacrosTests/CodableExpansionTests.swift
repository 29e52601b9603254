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

        #if hasFeature(InferIsolatedConformances)
        func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Doc + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._title, forKey: ._title, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Doc + 1)
          try KeyValueObserving._KeyValueEncoding.encode(self._default, forKey: ._default, to: &_$kvoContainer)
          try KeyValueObserving._KeyValueEncoding.encode(self.id, forKey: .id, to: &_$kvoContainer)
          try KeyValueObserving._KeyValueEncoding.encode(self.cache, forKey: .cache, to: &_$kvoContainer)
        }
        #else
        nonisolated func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Doc + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._title, forKey: ._title, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Doc + 1)
          try KeyValueObserving._KeyValueEncoding.encode(self._default, forKey: ._default, to: &_$kvoContainer)
          try KeyValueObserving._KeyValueEncoding.encode(self.id, forKey: .id, to: &_$kvoContainer)
          try KeyValueObserving._KeyValueEncoding.encode(self.cache, forKey: .cache, to: &_$kvoContainer)
        }
        #endif
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

        #if hasFeature(InferIsolatedConformances)
        func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Renamed + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._title, forKey: ._title, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Renamed + 1)
          try KeyValueObserving._KeyValueEncoding.encode(self._body, forKey: ._body, to: &_$kvoContainer)
        }
        #else
        nonisolated func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Renamed + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._title, forKey: ._title, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Renamed + 1)
          try KeyValueObserving._KeyValueEncoding.encode(self._body, forKey: ._body, to: &_$kvoContainer)
        }
        #endif
      }

      extension Renamed: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("Encodable: encode(to:) reports each observable property's read as its getter does, and encodes an optional only when set")
  func encodeReportsReads() {
    assertMacro {
      """
      @KeyValueObservable
      public final class Note: Encodable {
        public var text = ""
        var due: Int?
        private var secret = 0
        let id: Int
      }
      """
    } expansion: {
      #"""
      public final class Note: Encodable {
        public var text {
          @storageRestrictions(initializes: _text)
          init(initialValue) {
            _text = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 0)
            return _text
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _text = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Note + 0, to: newValue, get: { $0._text }, set: { $0._text = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Note + 0) else {
              yield &_text
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Note + 0) else {
              var _$kvoValue = _text
              defer { self.text = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Note + 0) }
            yield &_text
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _text = ""
        var due: Int? {
          @storageRestrictions(initializes: _due)
          init(initialValue) {
            _due = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 1)
            return _due
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _due = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Note + 1, to: newValue, get: { $0._due }, set: { $0._due = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Note + 1) else {
              yield &_due
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Note + 1) else {
              var _$kvoValue = _due
              defer { self.due = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Note + 1) }
            yield &_due
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _due: Int?
        private var secret {
          @storageRestrictions(initializes: _secret)
          init(initialValue) {
            _secret = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 2)
            return _secret
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _secret = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Note + 2, to: newValue, get: { $0._secret }, set: { $0._secret = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Note + 2) else {
              yield &_secret
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Note + 2) else {
              var _$kvoValue = _secret
              defer { self.secret = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Note + 2) }
            yield &_secret
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _secret = 0
        let id: Int

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        public nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        public nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Note: Swift.Int { 0 }

        public nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Note + 3 }

        public nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Note }

        private nonisolated static let _$kvoKeys_Note = KeyValueObserving._KeyValueKeyTable(Note.self) {
          if case (\Note.text, \Note?.?.text) = $0.stored("text", get: { Swift.unsafeDowncast($0, to: Note.self)._text }, modify: { $0(&Swift.unsafeDowncast($1, to: Note.self)._text) }) {}
          if case (\Note.due, \Note?.?.due) = $0.stored("due", get: { Swift.unsafeDowncast($0, to: Note.self)._due }, modify: { $0(&Swift.unsafeDowncast($1, to: Note.self)._due) }) {}
          if case (\Note.secret, \Note?.?.secret) = $0.stored("secret", keyedByString: false, get: { Swift.unsafeDowncast($0, to: Note.self)._secret }, modify: { $0(&Swift.unsafeDowncast($1, to: Note.self)._secret) }) {}
          if case \Note.id = $0.constant("id") {}
        }

        private enum CodingKeys: Swift.String, Swift.CodingKey {
          case _text = "text"
        case _due = "due"
        case _secret = "secret"
        case id
        }

        #if hasFeature(InferIsolatedConformances)
        public func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._text, forKey: ._text, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 1)
          try KeyValueObserving._KeyValueEncoding.encode(self._due, forKey: ._due, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 2)
          try KeyValueObserving._KeyValueEncoding.encode(self._secret, forKey: ._secret, to: &_$kvoContainer)
          try KeyValueObserving._KeyValueEncoding.encode(self.id, forKey: .id, to: &_$kvoContainer)
        }
        #else
        public nonisolated func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._text, forKey: ._text, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 1)
          try KeyValueObserving._KeyValueEncoding.encode(self._due, forKey: ._due, to: &_$kvoContainer)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Note + 2)
          try KeyValueObserving._KeyValueEncoding.encode(self._secret, forKey: ._secret, to: &_$kvoContainer)
          try KeyValueObserving._KeyValueEncoding.encode(self.id, forKey: .id, to: &_$kvoContainer)
        }
        #endif
      }

      extension Note: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("an open class that declares Observable: an open encode(to:) that reports to Swift Observation too")
  func openObservableClass() {
    assertMacro {
      """
      @KeyValueObservable
      open class Item: Codable, Observable {
        var text = ""
      }
      """
    } expansion: {
      #"""
      open class Item: Codable, Observable {
        var text {
          @storageRestrictions(initializes: _text)
          init(initialValue) {
            _text = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Item + 0)
            return _text
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _text = newValue
              return
            }
            _$kvoObserved._notifyingTrackedSet(self, slot: Self._$kvoFirstSlot_Item + 0, reportingTo: _$kvoObservationRegistrar, to: newValue, hasOverridableGetter: true, get: { $0.text }, set: { $0._text = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Item + 0) else {
              yield &_text
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Item + 0) else {
              var _$kvoValue = _text
              defer { _$kvoObserved._notifyingTrackedSet(self, slot: Self._$kvoFirstSlot_Item + 0, reportingTo: _$kvoObservationRegistrar, to: _$kvoValue, hasOverridableGetter: true, get: { $0.text }, set: { $0._text = $1 }) }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Item + 0) }
            yield &_text
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _text = ""

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        public nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storageMadeOnFirstUse(for: self) }

        public nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Item: Swift.Int { 0 }

        open nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Item + 1 }

        open nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Item }

        private nonisolated static let _$kvoKeys_Item = KeyValueObserving._KeyValueKeyTable(Item.self) {
          if case (\Item.text, \Item?.?.text) = $0.stored("text", get: { Swift.unsafeDowncast($0, to: Item.self)._text }, modify: { $0(&Swift.unsafeDowncast($1, to: Item.self)._text) }) {}
        }

        open nonisolated class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          _$kvoKeys_Item.slot(for: keyPath, in: Self.self) {
            func slot<Root: Item>(in _: Root.Type) -> Swift.Int? {
              switch keyPath {
              case \Root.text: return _$kvoFirstSlot_Item + 0
              default: return nil
              }
            }
            return slot(in: Self.self)
          }
        }

        public nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) public nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) { _$kvoObservationRegistrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys_Item) }

        private enum CodingKeys: Swift.String, Swift.CodingKey {
          case _text = "text"
        }

        #if hasFeature(InferIsolatedConformances)
        open func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Item + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._text, forKey: ._text, to: &_$kvoContainer)
        }
        #else
        open nonisolated func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.trackedAccess(self, slot: Self._$kvoFirstSlot_Item + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._text, forKey: ._text, to: &_$kvoContainer)
        }
        #endif
      }

      extension Item: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }

  @Test("no encode(to:) for a class that is only Decodable or writes its own; the coding keys stay")
  func noEncode() {
    assertMacro {
      """
      @KeyValueObservable
      final class Setting: Decodable {
        var value = 0
      }
      """
    } expansion: {
      #"""
      final class Setting: Decodable {
        var value {
          @storageRestrictions(initializes: _value)
          init(initialValue) {
            _value = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Setting + 0)
            return _value
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _value = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Setting + 0, to: newValue, get: { $0._value }, set: { $0._value = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Setting + 0) else {
              yield &_value
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Setting + 0) else {
              var _$kvoValue = _value
              defer { self.value = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Setting + 0) }
            yield &_value
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _value = 0

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Setting: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Setting + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Setting }

        private nonisolated static let _$kvoKeys_Setting = KeyValueObserving._KeyValueKeyTable(Setting.self) {
          if case (\Setting.value, \Setting?.?.value) = $0.stored("value", get: { Swift.unsafeDowncast($0, to: Setting.self)._value }, modify: { $0(&Swift.unsafeDowncast($1, to: Setting.self)._value) }) {}
        }

        private enum CodingKeys: Swift.String, Swift.CodingKey {
          case _value = "value"
        }
      }

      extension Setting: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
    assertMacro {
      """
      @KeyValueObservable
      final class Custom: Encodable {
        var value = 0
        func encode(to encoder: any Encoder) throws {}
      }
      """
    } expansion: {
      #"""
      final class Custom: Encodable {
        var value {
          @storageRestrictions(initializes: _value)
          init(initialValue) {
            _value = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Custom + 0)
            return _value
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _value = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Custom + 0, to: newValue, get: { $0._value }, set: { $0._value = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Custom + 0) else {
              yield &_value
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Custom + 0) else {
              var _$kvoValue = _value
              defer { self.value = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Custom + 0) }
            yield &_value
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _value = 0
        func encode(to encoder: any Encoder) throws {}

        private nonisolated let _$kvoRegistrar = KeyValueObserving._KeyValueObservationRegistrar()

        nonisolated final var _$kvoObservedStorage: Swift.Unmanaged<KeyValueObserving._KeyValueObservationStorage>? { _$kvoRegistrar.storage }

        nonisolated final func _$kvoStorage() -> KeyValueObserving._KeyValueObservationStorage { _$kvoRegistrar.makeStorage(for: self) }

        private nonisolated static var _$kvoFirstSlot_Custom: Swift.Int { 0 }

        nonisolated class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Custom + 1 }

        nonisolated class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Custom }

        private nonisolated static let _$kvoKeys_Custom = KeyValueObserving._KeyValueKeyTable(Custom.self) {
          if case (\Custom.value, \Custom?.?.value) = $0.stored("value", get: { Swift.unsafeDowncast($0, to: Custom.self)._value }, modify: { $0(&Swift.unsafeDowncast($1, to: Custom.self)._value) }) {}
        }

        private enum CodingKeys: Swift.String, Swift.CodingKey {
          case _value = "value"
        }
      }

      extension Custom: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}

/// A subclass that declares `Codable` itself, its superclass being
/// observable but not `Codable`.
@Suite(.macros(subclassMacros, record: .missing))
struct CodableSubclassExpansionTests {
  @Test("a subclass that declares Codable encodes its own properties, reported at its own slots")
  func subclass() {
    assertMacro {
      """
      @KeyValueObservable
      final class Task: Base, Codable {
        var done = false
      }
      """
    } expansion: {
      #"""
      final class Task: Base, Codable {
        var done {
          @storageRestrictions(initializes: _done)
          init(initialValue) {
            _done = initialValue
          }
          get {
            KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Task + 0)
            return _done
          }
          set {
            guard let _$kvoObserved = self._$kvoObservedStorage else {
              _done = newValue
              return
            }
            _$kvoObserved._notifyingSet(self, slot: Self._$kvoFirstSlot_Task + 0, to: newValue, get: { $0._done }, set: { $0._done = $1 })
          }
          _modify {
            guard let _$kvoObserved = self._$kvoObservedStorage, !_$kvoObserved._modifiesInPlace(slot: Self._$kvoFirstSlot_Task + 0) else {
              yield &_done
              return
            }
            guard _$kvoObserved._willModifyInPlace(self, slot: Self._$kvoFirstSlot_Task + 0) else {
              var _$kvoValue = _done
              defer { self.done = _$kvoValue }
              yield &_$kvoValue
              return
            }
            defer { _$kvoObserved._didModifyInPlace(self, slot: Self._$kvoFirstSlot_Task + 0) }
            yield &_done
          }
        }

        @exclusivity(unchecked) private final nonisolated(unsafe) var _done = false

        private nonisolated static var _$kvoFirstSlot_Task: Swift.Int { super._$kvoKeyCount }

        nonisolated override class var _$kvoKeyCount: Swift.Int { _$kvoFirstSlot_Task + 1 }

        nonisolated override class var _$kvoKeys: KeyValueObserving._KeyValueKeyTable { _$kvoKeys_Task }

        private nonisolated static let _$kvoKeys_Task = KeyValueObserving._KeyValueKeyTable(Task.self, after: Base._$kvoKeys) {
          if case (\Task.done, \Task?.?.done) = $0.stored("done", get: { Swift.unsafeDowncast($0, to: Task.self)._done }, modify: { $0(&Swift.unsafeDowncast($1, to: Task.self)._done) }) {}
        }

        nonisolated override class func _$kvoSlot(for keyPath: Swift.AnyKeyPath) -> Swift.Int? {
          _$kvoKeys_Task.slot(for: keyPath, in: Self.self) { nil } ?? super._$kvoSlot(for: keyPath)
        }

        private enum CodingKeys: Swift.String, Swift.CodingKey {
          case _done = "done"
        }

        #if hasFeature(InferIsolatedConformances)
        func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Task + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._done, forKey: ._done, to: &_$kvoContainer)
        }
        #else
        nonisolated func encode(to encoder: any Swift.Encoder) throws {
          var _$kvoContainer = encoder.container(keyedBy: CodingKeys.self)
          KeyValueObserving._KeyValueAccessTracking.access(self, slot: Self._$kvoFirstSlot_Task + 0)
          try KeyValueObserving._KeyValueEncoding.encode(self._done, forKey: ._done, to: &_$kvoContainer)
        }
        #endif
      }
      """#
    }
  }
}
