import KeyValueObserving
import Testing

/// 0.1.0's spellings of the error's cases: they still build the error they
/// named, and a pattern that only lacks the new labels still matches.
@Suite("KeyValueCodingError: 0.1.0 spellings")
struct ShippedErrorSpellingsTests {
  @available(*, deprecated, message: "tests the deprecated spellings")
  @Test("the deprecated factories build the renamed cases")
  func factories() {
    #expect(KeyValueCodingError.unknownKey("nmae", type: "Person") == .unknownKey(key: "nmae", type: "Person"))
    #expect(KeyValueCodingError.readOnly("id", type: "Person") == .readOnly(key: "id", type: "Person"))
  }

  @available(*, deprecated, message: "tests the deprecated spellings")
  @Test("notObservable builds neverNotifies for a last key, notAnObservableObject for a link")
  func notObservable() {
    #expect(
      KeyValueCodingError.notObservable(keyPath: "cache", key: "cache", type: "Person")
        == .neverNotifies(keyPath: "cache", key: "cache", type: "Person")
    )
    #expect(
      KeyValueCodingError.notObservable(keyPath: "panel.scratch", key: "scratch", type: "PortedPanel")
        == .neverNotifies(keyPath: "panel.scratch", key: "scratch", type: "PortedPanel")
    )
    #expect(
      KeyValueCodingError.notObservable(keyPath: "name.count", key: "name", type: "Person")
        == .notAnObservableObject(keyPath: "name.count", key: "name", type: "Person")
    )
  }

  @Test("a 0.1.0 pattern without labels still matches the thrown error")
  func unlabelledPatterns() {
    let person = Person()
    do {
      _ = try person.value(forKey: "nmae")
      Issue.record("an unknown key throws")
    } catch {
      guard case .unknownKey(let key, let type) = error else {
        Issue.record("expected .unknownKey, got \(error)")
        return
      }
      #expect(key == "nmae" && type == "Person")
    }
    do {
      try person.setValue(2, forKey: "id")
      Issue.record("a constant is read-only")
    } catch {
      #expect({ if case .readOnly("id", type: "Person") = error { true } else { false } }())
    }
  }
}
