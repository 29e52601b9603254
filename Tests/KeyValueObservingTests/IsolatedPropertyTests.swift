import KeyValueObserving
import Testing

/// A global actor of the test's own, as an app's model layer may declare.
@globalActor
actor ModelActor {
  static let shared = ModelActor()
}

@MainActor
final class MainActorLabel {
  var text = ""
}

@ModelActor
final class ModelActorCounter {
  var count = 0
}

/// Properties isolated by an attribute of their own, in a class that is
/// not, each with an initial value that calls an isolated initializer.
@KeyValueObservable
final class MainActorProperties {
  @MainActor var label = MainActorLabel()
  @MainActor var typedLabel: MainActorLabel = MainActorLabel()
  var plain = 0

  @MainActor init() {}
}

@KeyValueObservable
final class ModelActorProperties {
  @ModelActor var counter = ModelActorCounter()

  @ModelActor init() {}
}

@Suite("Properties isolated by their own global actor")
struct IsolatedPropertyTests {
  @Test("a main-actor property whose initial value calls a main-actor initializer is observable, typed or not")
  @MainActor
  func mainActorProperty() {
    let model = MainActorProperties()
    let seen = Recorder<String>()
    let token = model.observe(\.label, options: .new) { _, change in seen.append("label") }
    let typedToken = model.observe(\.typedLabel, options: .new) { _, change in seen.append("typed") }
    model.label = MainActorLabel()
    model.typedLabel = MainActorLabel()
    #expect(seen.elements == ["label", "typed"])
    _ = (token, typedToken)
  }

  @Test("a property under a custom global actor is made observable, not left as a wrapped one")
  @ModelActor
  func customActorProperty() {
    let model = ModelActorProperties()
    #expect(ModelActorProperties._$kvoSlot(forKey: "counter") != nil)
    let counts = Recorder<Int>()
    let token = model.observe(\.counter, options: .new) { _, change in counts.append(change.newValue!.count) }
    let replacement = ModelActorCounter()
    replacement.count = 3
    model.counter = replacement
    #expect(counts.elements == [3])
    _ = token
  }
}
