// Set mutations apply to Set properties only, and their split form is not
// for async code.
import KeyValueObserving

@KeyValueObservable
final class Model {
  var tags: [String] = []
  var ids: Set<Int> = []
}

func misuse(_ model: Model) {
  model.withChange(.union, using: ["a"], for: \.tags) {}
  // expected-error: to expected argument type 'ReferenceWritableKeyPath<Model, Set<
}

func split(_ model: Model) async {
  model.willChange(.union, using: [1], for: \.ids)
  // expected-error: use withChange(_:using:for:_:)
  model.didChange(.union, using: [1], for: \.ids)
}
