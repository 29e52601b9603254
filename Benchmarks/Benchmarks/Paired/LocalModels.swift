import Benchmark
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

/// A computed property over two stored ones.
@KeyValueObservable
final class PairedDerived {
  var first = 0
  var second = 0
  var sum: Int { first + second }
}

/// A three-link chain, `\.middle.inner.value`, whose leaf is written.
@KeyValueObservable
final class PairedChainRoot {
  var middle = PairedChainMiddle()
}

@KeyValueObservable
final class PairedChainMiddle {
  var inner = PairedChainLeaf()
}

@KeyValueObservable
final class PairedChainLeaf {
  var value = 0
}

/// The same chain through optional links, `\.middle?.inner?.value`.
@KeyValueObservable
final class PairedOptionalChainRoot {
  var middle: PairedOptionalChainMiddle? = PairedOptionalChainMiddle()
}

@KeyValueObservable
final class PairedOptionalChainMiddle {
  var inner: PairedChainLeaf? = PairedChainLeaf()
}

/// The same chain through a `weak` middle link, whose object is kept
/// alive elsewhere.
@KeyValueObservable
final class PairedWeakChainRoot {
  weak var middle: PairedOptionalChainMiddle?
}

/// A to-many property, for the array proxy and direct appends.
@KeyValueObservable
final class PairedListing {
  var items: [Int] = []
}

/// One of the objects a computed key sums.
@KeyValueObservable
final class PairedCell {
  var value = 0
}

/// A computed key over many objects: the sum of its cells' values.
@KeyValueObservable
final class PairedTotal {
  var cells: [PairedCell]
  var total: Int { cells.reduce(0) { $0 + $1.value } }

  init(cells: Int) {
    self.cells = (0..<cells).map { _ in PairedCell() }
  }
}

/// A classic observer that consumes what it is given.
final class PairedSink: KeyValueObserver {
  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    blackHole(change)
  }
}

/// A plain class a binding writes to, as a view is.
final class PairedTarget {
  var value = 0
}

/// A document of a model graph: a title and a list of items, as a
/// document app's model is.
@KeyValueObservable
final class PairedDocument {
  var title = ""
  var items: [PairedItem]

  /// A document of `items` items, each with its registrar's storage made,
  /// as an app's objects have once anything observed them: a graph's rows
  /// measure the graph's own work.
  init(items: Int) {
    self.items = (0..<items).map { _ in PairedItem() }
    observe(\.title) { _, _ in }.invalidate()
    for item in self.items {
      item.observe(\.text) { _, _ in }.invalidate()
    }
  }
}

/// One item of a document.
@KeyValueObservable
final class PairedItem {
  var text = ""
  var done = false
  var count = 0
}
