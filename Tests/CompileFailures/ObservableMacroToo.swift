// '@Observable' beside '@KeyValueObservable': one error with its fix-it,
// and nothing else from either macro.
// no other errors
import KeyValueObserving
import Observation

@Observable
// expected-error: '@Observable' and '@KeyValueObservable' cannot both rewrite this class's properties
@KeyValueObservable
final class Both {
  var name = ""
  var count = 0
}
