// The proxies name what they need instead of a generic-inference error.
import KeyValueObserving

@KeyValueObservable
final class Model {
  var count = 0
  var tags: [String] = []
}

func misuse(_ model: Model) {
  _ = model.mutableArrayValue(for: \.count)
  // expected-error: mutableArrayValue(for:) needs a writable key path to an array property
  _ = model.mutableSetValue(for: \.tags)
  // expected-error: mutableSetValue(for:) needs a writable key path to a Set property
}
