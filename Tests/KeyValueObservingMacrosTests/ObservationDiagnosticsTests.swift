import MacroTesting
import Testing

/// What the macro refuses in a class that Swift Observation tracks.
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
          if case (\Sheet.title, \Sheet?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) {
          guard case .access = event, let keyPath = type(of: self)._$kvoKeyPath(forSlot: slot) as? any KeyValueObserving._KeyValueTypedKeyPath<Sheet> else {
            return _$kvoObservationRegistrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys_Sheet)
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
          if case (\Sheet.title, \Sheet?.?.title) = $0.stored("title", get: { Swift.unsafeDowncast($0, to: Sheet.self)._title }, modify: { $0(&Swift.unsafeDowncast($1, to: Sheet.self)._title) }) {}
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
          if case \Sheet.cache = $0.unannounced("cache") {}
        }

        nonisolated let _$kvoObservationRegistrar = Observation.ObservationRegistrar()

        @inline(never) nonisolated final func _$kvoObservationEvent(_ event: KeyValueObserving._KeyValueObservationEvent, slot: Swift.Int) { _$kvoObservationRegistrar._$kvoReport(event, self, slot: slot, in: Self._$kvoKeys_Sheet) }
      }

      extension Sheet: nonisolated KeyValueObserving.KeyValueObservable {}
      """#
    }
  }
}
