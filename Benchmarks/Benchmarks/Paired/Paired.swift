import Benchmark
import BenchmarkModels
import Dispatch
import KeyValueObserving
import OpenCombine

/// The budgets that are ratios (Benchmarks/README.md), each measured in pairs: every
/// round times the reference and our row back to back, and the row's median
/// is the median of the rounds' ratios. `compare.sh` judges the ratio
/// budgets on these; the Floors, Ours and Anchors suites give the times.
let benchmarks: @Sendable () -> Void = {
  // Counts one row under callgrind when count-instructions.sh asks.
  InstructionCounting.install()

  paired("paired: unobserved write ÷ plain stored write", operations: 10_000) {
    Pair(reference: plainWrites(to: PairedPlain()), ours: observedWrites(observers: 0))
  }

  paired("paired: write, 1 .old|.new observer ÷ write + direct closure call", operations: 10_000) {
    let plain = PairedPlain()
    let handler: (Int, Int) -> Void = { _, new in blackHole(new) }
    return Pair(
      reference: { count in
        for index in 0..<count {
          let old = plain.value
          plain.value = index
          handler(old, plain.value)
          blackHole(plain)
        }
      },
      ours: observedWrites(observers: 1)
    )
  }

  paired("paired: write, 1 .old|.new observer ÷ CurrentValueSubject.send, 1 sink", operations: 2_000) {
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { blackHole($0) }
    return Pair(
      reference: { count in
        withExtendedLifetime(cancellable) {
          for index in 0..<count {
            subject.send(index)
          }
        }
      },
      ours: observedWrites(observers: 1)
    )
  }

  paired("paired: write, 10 .old|.new observers ÷ write, 1 observer", operations: 2_000) {
    Pair(reference: observedWrites(observers: 1), ours: observedWrites(observers: 10))
  }

  paired("paired: observe + invalidate, 1000 other observers ÷ none", operations: 2_000) {
    Pair(reference: observeAndInvalidate(otherObservers: 0), ours: observeAndInvalidate(otherObservers: 1_000))
  }

  // Writes first, then consumption, on both sides, as in the separate rows.
  pairedAsync("paired: changes(for:) per delivered change ÷ AsyncStream hand-off", operations: 1_000) {
    let (stream, continuation) = AsyncStream.makeStream(of: (Int, Int).self)
    let streaming = PairedStreaming(continuation)
    let observed = PairedObserved()
    let changes = observed.changes(for: \.value, options: [.old, .new])
    let streamIterator = IteratorBox(stream.makeAsyncIterator())
    let changesIterator = IteratorBox(changes.makeAsyncIterator())
    return AsyncPair(
      reference: { count in
        for index in 0..<count {
          streaming.value = index
        }
        for _ in 0..<count {
          blackHole(await streamIterator.next())
        }
      },
      ours: { count in
        for index in 0..<count {
          observed.value = index
        }
        for _ in 0..<count {
          blackHole(await changesIterator.next())
        }
      }
    )
  }

  // Throughput of two threads each writing its own object, divided by one
  // thread's: 2 × (one thread's time ÷ two threads' time), for observed
  // objects and, as the machine's own figure, for plain ones. Each side
  // runs about 50 ms (two million observed writes, twenty million plain
  // ones): at about 5 ms (200,000 observed writes), a loop of arithmetic
  // on thread-local memory read 1.2–1.9× on a two-core virtual machine,
  // the second thread's start and scheduling outweighing the work.
  paired("paired: 2 threads ÷ 1 thread, observed writes (speedup)", operations: 2_000_000, rounds: 12, speedup: 2) {
    scalingPair(make: PairedObserved.init, observe: { model in
      model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    }) { model, value in model.value = value }
  }
  paired("paired: 2 threads ÷ 1 thread, plain writes (speedup)", operations: 20_000_000, rounds: 12, speedup: 2) {
    scalingPair(make: PairedPlain.init, observe: { _ in nil }) { model, value in model.value = value }
  }

  // Two threads writing one observed object, against the same two threads
  // taking one shared pthread_mutex around each write: the storage's lock
  // contended, against the lock a user would add. `operations` is the
  // writes of both threads together, so that a count is per write.
  paired(
    "paired: 2 threads writing 1 observed object ÷ the same serialised by a pthread mutex",
    operations: 400_000, rounds: 20
  ) {
    sharedObjectPair()
  }

  beyondStoredKeyBenchmarks()
  closureAndBindingBenchmarks()
  withObservationBenchmarks()
  withCombineBenchmarks()
  modelGraphBenchmarks()
  undoBenchmarks()
}

/// `count` writes to a plain stored property.
private func plainWrites(to model: PairedPlain) -> (Int) -> Void {
  { count in
    for index in 0..<count {
      model.value = index
      blackHole(model)
    }
  }
}

/// `count` writes to an observable property with `observers` `.old`+`.new`
/// observers.
func observedWrites(observers: Int) -> (Int) -> Void {
  let model = PairedObserved()
  let tokens = (0..<observers).map { _ in
    model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
  }
  return { count in
    withExtendedLifetime(tokens) {
      for index in 0..<count {
        model.value = index
        blackHole(model)
      }
    }
  }
}

/// `count` observations made and invalidated on a key that
/// `otherObservers` other registrations observe.
private func observeAndInvalidate(otherObservers: Int) -> (Int) -> Void {
  let model = PairedObserved()
  let others = (0..<otherObservers).map { _ in model.observe(\.value) { _, _ in } }
  return { count in
    withExtendedLifetime(others) {
      for _ in 0..<count {
        let token = model.observe(\.value) { _, _ in }
        token.invalidate()
        blackHole(token)
      }
    }
  }
}

/// One thread writing one object as the reference, two threads writing two
/// objects as ours; every thread makes the given number of writes.
private func scalingPair<Model: AnyObject>(
  make: @escaping () -> Model,
  observe: @escaping (Model) -> KeyValueObservation?,
  write: @escaping (Model, Int) -> Void
) -> Pair {
  // Allocations between the objects keep them off one cache line.
  var spacers: [[UInt8]] = []
  let models = (0..<3).map { _ in
    spacers.append([UInt8](repeating: 0, count: 256))
    return make()
  }
  let tokens = models.map(observe)
  let shared = UncheckedSendable((models, tokens, spacers, write))
  let run: @Sendable (_ threads: Int, _ first: Int, _ writes: Int) -> Void = { threads, first, writes in
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let model = shared.value.0[first + thread]
      for index in 0..<writes {
        shared.value.3(model, index)
        blackHole(model)
      }
    }
  }
  return Pair(
    reference: { count in run(1, 0, count) },
    ours: { count in run(2, 1, count) }
  )
}

/// Two threads each making half of the given number of writes to one
/// observed object: inside one shared `pthread_mutex_t` as the reference,
/// without it as ours.
private func sharedObjectPair() -> Pair {
  let model = PairedObserved()
  let token = model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
  let shared = UncheckedSendable((model, token, SharedMutex()))
  return Pair(
    reference: { count in
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        let (model, _, mutex) = shared.value
        for index in 0..<count / 2 {
          mutex.withLock { model.value = index }
          blackHole(model)
        }
      }
    },
    ours: { count in
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        let model = shared.value.0
        for index in 0..<count / 2 {
          model.value = index
          blackHole(model)
        }
      }
    }
  )
}

/// An async iterator that the rounds of one paired row take turns with.
private final class IteratorBox<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
  // @unchecked Sendable: one round at a time uses it.
  private var iterator: Iterator

  init(_ iterator: Iterator) { self.iterator = iterator }

  func next() async -> Iterator.Element? {
    try? await iterator.next()
  }
}
