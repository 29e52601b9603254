// A property next to a declaration of its backing storage's name.
import KeyValueObserving

@KeyValueObservable
final class Account {
  var name = ""
  var _name = ""
  // expected-error: '_name' is the name '@KeyValueObservable' gives the storage of 'name'
}
