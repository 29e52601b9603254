import Benchmark
import KeyValueObserving

/// A tracked closure against an observed computed key over the same reads,
/// and a bound write against what a user writes by hand in its place: a
/// one-observer write plus the target's own write, made directly
/// (`label.text = value`), never through a key path at run time.
func closureAndBindingBenchmarks() {
  paired("paired: write re-running a tracked closure ÷ write to a dependency of a computed key", operations: 2_000) {
    let observed = PairedDerived()
    let token = observed.observe(\.sum, options: .new) { _, change in blackHole(change.newValue) }
    let tracked = PairedDerived()
    let closure = withKeyValueObservation { blackHole(tracked.first + tracked.second) }
    return Pair(
      reference: writes(keeping: token) { index in observed.first = index },
      ours: writes(keeping: closure) { index in tracked.first = index }
    )
  }

  paired("paired: write re-reading a tracked value, .old|.new ÷ a computed key observed .old|.new", operations: 2_000) {
    let observed = PairedDerived()
    let token = observed.observe(\.sum, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    let tracked = PairedDerived()
    let value = withKeyValueObservation(of: { tracked.first + tracked.second }, options: [.old, .new]) { change in
      blackHole(change.newValue)
    }
    return Pair(
      reference: writes(keeping: token) { index in observed.first = index },
      ours: writes(keeping: value) { index in tracked.first = index }
    )
  }

  paired("paired: write re-running a tracked closure, key-value only ÷ write to a dependency of a computed key", operations: 2_000) {
    let observed = PairedDerived()
    let token = observed.observe(\.sum, options: .new) { _, change in blackHole(change.newValue) }
    let tracked = PairedDerived()
    let closure = withKeyValueObservation(tracking: .skippingSwiftObservation) { blackHole(tracked.first + tracked.second) }
    return Pair(
      reference: writes(keeping: token) { index in observed.first = index },
      ours: writes(keeping: closure) { index in tracked.first = index }
    )
  }

  paired("paired: one-way bound write ÷ write, 1 observer + the target's direct write", operations: 2_000) {
    let observed = observedWrites(observers: 1)
    let plainTarget = PairedTarget()
    let source = PairedObserved()
    let target = PairedTarget()
    let binding = source.bind(\.value, to: \.value, on: target)
    // The binding holds neither object: both are kept by the row.
    return Pair(
      reference: { count in
        observed(count)
        for index in 0..<count {
          plainTarget.value = index
          blackHole(plainTarget)
        }
      },
      ours: writes(keeping: (binding, target)) { index in source.value = index }
    )
  }

  paired("paired: two-way bound write ÷ two writes, 1 observer each", operations: 2_000) {
    let first = observedWrites(observers: 1)
    let second = observedWrites(observers: 1)
    let source = PairedObserved()
    let target = PairedObserved()
    let binding = source.bind(\.value, twoWayTo: \.value, on: target, initialValueFrom: .source)
    return Pair(
      reference: { count in
        first(count)
        second(count)
      },
      ours: writes(keeping: (binding, target)) { index in source.value = index }
    )
  }
}

/// `count` runs of `write`, keeping `kept` alive.
private func writes(keeping kept: Any, _ write: @escaping (Int) -> Void) -> (Int) -> Void {
  { count in
    withExtendedLifetime(kept) {
      for index in 0..<count {
        write(index)
      }
    }
  }
}
