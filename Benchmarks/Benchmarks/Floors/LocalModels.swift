/// The floor's model, declared in the module that writes to it, as
/// application code usually does: the write compiles to a store.
final class Plain {
  var value = 0
}

/// A plain property that hands each change to an AsyncStream itself.
final class Streaming {
  let continuation: AsyncStream<(Int, Int)>.Continuation
  var value = 0 {
    didSet { continuation.yield((oldValue, value)) }
  }

  init(_ continuation: AsyncStream<(Int, Int)>.Continuation) {
    self.continuation = continuation
  }
}
