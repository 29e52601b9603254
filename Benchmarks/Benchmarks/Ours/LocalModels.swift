import KeyValueObserving
import Observation
import Benchmark

/// The observable model, declared in the module that writes to it, as
/// application code usually does, so that its accessors inline like the
/// floor's store does.
@KeyValueObservable
final class Observed {
  var value = 0
}

/// The same property in a class that declares `Observable`, so that Swift
/// Observation tracks it too.
@KeyValueObservable
final class TrackedObserved: Observable {
  var value = 0
}

/// A computed property over a stored one, observed without any declaration.
@KeyValueObservable
final class Derived {
  var value = 0
  var doubled: Int { value * 2 }
}

/// A three-link chain, `\.middle.inner.value`, whose leaf is written.
@KeyValueObservable
final class ChainRoot {
  var middle = ChainMiddle()
}

@KeyValueObservable
final class ChainMiddle {
  var inner = ChainLeaf()
}

@KeyValueObservable
final class ChainLeaf {
  var value = 0
}

/// A to-many property, for the array proxy.
@KeyValueObservable
final class Listing {
  var items: [Int] = []
}

/// A classic observer that consumes what it is given.
final class SinkObserver: KeyValueObserver {
  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    blackHole(change)
  }
}
