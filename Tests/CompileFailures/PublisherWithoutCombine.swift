// publisher(for:) with only the core imported names the product to add,
// not "has no member" (the Combine tests, which import both, are the control).
import KeyValueObserving

@KeyValueObservable
final class Model {
  var name = ""
}

func subscribe(_ model: Model) {
  _ = model.publisher(for: \.name)
  // expected-error: publisher(for:) is in KeyValueObservingCombine
}
