// A class declared inside a function cannot be observable: one clear error.
import KeyValueObserving

func makeModel() {
  @KeyValueObservable
  final class Local {
    var name = ""
  }
  // expected-error: '@KeyValueObservable' cannot be used on a class declared inside a function or closure
  _ = Local()
}
