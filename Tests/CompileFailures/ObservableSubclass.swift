// A subclass that declares 'Observable' when its superclass does not: the
// accessors it shares with the superclass report to no Observation
// registrar, so nothing would ever track it. One error, naming where to
// declare it instead.
// no other errors
import KeyValueObserving
import Observation

@KeyValueObservable
class Folder {
  var name = ""
}

@KeyValueObservable
// expected-error: a subclass is tracked by Swift Observation only through its superclass: declare 'Observable' on 'Folder'
final class TrackedFolder: Folder, Observable {
  var label = ""
}
