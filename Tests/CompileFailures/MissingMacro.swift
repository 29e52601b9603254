// A class without @KeyValueObservable has no observe: the message Getting
// Started's "Common mistakes" quotes, word for word.
import KeyValueObserving

final class Person {
  var name = ""
}

func observeName(_ person: Person) {
  _ = person.observe(\.name) { _, _ in }
  // expected-error: value of type 'Person' has no member 'observe'
}
