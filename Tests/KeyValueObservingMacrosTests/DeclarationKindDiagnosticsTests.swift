import MacroTesting
import Testing

/// Declarations the macro refuses: not a class, or a class it cannot extend.
@Suite(.macros(rootClassMacros, record: .missing))
struct DeclarationKindDiagnosticsTests {
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
          if case (\Point.x, \Point?.?.x) = $0.stored("x", get: { Swift.unsafeDowncast($0, to: Point.self)._x }, modify: { $0(&Swift.unsafeDowncast($1, to: Point.self)._x) }) {}
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
          if case (\Bank.balance, \Bank?.?.balance) = $0.stored("balance", get: { Swift.unsafeDowncast($0, to: Bank.self)._balance }, modify: { $0(&Swift.unsafeDowncast($1, to: Bank.self)._balance) }) {}
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
}
