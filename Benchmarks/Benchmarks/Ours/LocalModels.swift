import KeyValueObserving

/// The observable model, declared in the module that writes to it, as
/// application code usually does, so that its accessors inline like the
/// floor's store does.
@KeyValueObservable
final class Observed {
  var value = 0
}
