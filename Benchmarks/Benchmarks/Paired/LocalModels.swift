import KeyValueObserving

// The models of the paired rows, declared in the module that writes to
// them, as the Floors and Ours suites declare theirs.

/// The floor: a plain stored property.
final class PairedPlain {
  var value = 0
}

/// The same property, observable.
@KeyValueObservable
final class PairedObserved {
  var value = 0
}

/// A plain property that hands each change to an AsyncStream itself.
final class PairedStreaming {
  let continuation: AsyncStream<(Int, Int)>.Continuation
  var value = 0 {
    didSet { continuation.yield((oldValue, value)) }
  }

  init(_ continuation: AsyncStream<(Int, Int)>.Continuation) {
    self.continuation = continuation
  }
}
