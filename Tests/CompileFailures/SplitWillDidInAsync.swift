// A will/did pair split across an await would leave the will open on the
// thread the task left.
import KeyValueObserving

@KeyValueObservable
final class Model {
  var name = ""
}

func rename(_ model: Model) async {
  model.willChangeValue(for: \.name)
  // expected-error: 'willChangeValue' is unavailable from asynchronous contexts
  await Task.yield()
  model.didChangeValue(for: \.name)
  // expected-error: 'didChangeValue' is unavailable from asynchronous contexts
  try? model.willChangeValue(forKey: "name")
  // expected-error: use withChange(forKey:_:)
}
