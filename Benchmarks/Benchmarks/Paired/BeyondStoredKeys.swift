import Benchmark
import KeyValueObserving

/// The paths beyond a stored key, each paired with the stored key's
/// one-observer write (or with itself at another size): derived keys,
/// chains, classic observers, key-value coding and to-many changes.
func beyondStoredKeyBenchmarks() {
  paired("paired: write to a dependency of a computed key ÷ write, 1 observer", operations: 2_000) {
    let model = PairedDerived()
    let token = model.observe(\.sum, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    return Pair(reference: observedWrites(observers: 1), ours: kept(token) { index in model.first = index })
  }

  paired("paired: write to the leaf of a 3-link chain ÷ write, 1 observer", operations: 2_000) {
    let root = PairedChainRoot()
    let leaf = root.middle.inner
    let token = root.observe(\.middle.inner.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    // The root is kept too: its deinit would end the observation.
    return Pair(reference: observedWrites(observers: 1), ours: kept((token, root)) { index in leaf.value = index })
  }

  paired("paired: write to the leaf of an optional 3-link chain ÷ write, 1 observer", operations: 2_000) {
    let root = PairedOptionalChainRoot()
    let leaf = root.middle!.inner!
    let token = root.observe(\.middle?.inner?.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    return Pair(reference: observedWrites(observers: 1), ours: kept((token, root)) { index in leaf.value = index })
  }

  paired("paired: write to the leaf of a 3-link chain through a weak link ÷ write, 1 observer", operations: 2_000) {
    let root = PairedWeakChainRoot()
    let middle = PairedOptionalChainMiddle()
    root.middle = middle
    let leaf = middle.inner!
    let token = root.observe(\.middle?.inner?.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    return Pair(reference: observedWrites(observers: 1), ours: kept((token, root, middle)) { index in leaf.value = index })
  }

  // Issue 55: hearing a freed object costs nothing a write sees, beyond
  // keeping the value read for the old value of a freeing.
  paired("paired: weak-linked chain leaf write, heard freed ÷ not", operations: 2_000) {
    Pair(reference: weakChainLeafWrites(options: [.old, .new]), ours: weakChainLeafWrites(options: [.old, .new, .deallocation]))
  }

  paired("paired: replacing the middle link of an optional chain ÷ of a non-optional chain", operations: 2_000) {
    let plainRoot = PairedChainRoot()
    let plainMiddles = [PairedChainMiddle(), PairedChainMiddle()]
    let plainToken = plainRoot.observe(\.middle.inner.value, options: [.old, .new]) { _, change in
      blackHole(change.newValue)
    }
    let root = PairedOptionalChainRoot()
    let middles = [PairedOptionalChainMiddle(), PairedOptionalChainMiddle()]
    let token = root.observe(\.middle?.inner?.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    return Pair(
      reference: kept((plainToken, plainRoot, plainMiddles)) { index in plainRoot.middle = plainMiddles[index & 1] },
      ours: kept((token, root, middles)) { index in root.middle = middles[index & 1] }
    )
  }

  paired("paired: classic observer write ÷ write, 1 observer", operations: 2_000) {
    let model = PairedObserved()
    let observer = PairedSink()
    try! model.addObserver(observer, forKeyPath: "value", options: [.old, .new])
    return Pair(reference: observedWrites(observers: 1), ours: kept(observer) { index in model.value = index })
  }

  // O(1) amortised in the other registrations, paired: the separate rows'
  // times moved by half between quiet runs of unchanged code.
  paired("paired: classic add + remove, 20000 other observers ÷ 1000", operations: 2_000) {
    Pair(reference: classicAddAndRemove(otherObservers: 1_000), ours: classicAddAndRemove(otherObservers: 20_000))
  }
  paired("paired: controller observe + unobserve, 20000 other observations ÷ 1000", operations: 2_000) {
    Pair(reference: controllerObserveAndUnobserve(others: 1_000), ours: controllerObserveAndUnobserve(others: 20_000))
  }

  paired("paired: setValue(forKey:) ÷ write, 1 observer", operations: 2_000) {
    let model = PairedObserved()
    let token = model.observe(\.value, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    return Pair(
      reference: observedWrites(observers: 1),
      ours: kept(token) { index in try! model.setValue(index, forKey: "value") }
    )
  }

  paired("paired: array-proxy append, 1 observer ÷ write, 1 observer", operations: 2_000) {
    Pair(reference: observedWrites(observers: 1), ours: appends(startingAt: 10, observer: [.old, .new], proxy: true))
  }

  paired("paired: array-proxy append at 1000000 elements ÷ at 10, 1 observer", operations: 2_000) {
    Pair(
      reference: appends(startingAt: 10, observer: [.old, .new], proxy: true),
      ours: appends(startingAt: 1_000_000, observer: [.old, .new], proxy: true)
    )
  }

  paired("paired: array-proxy append at 1000000 elements, unobserved ÷ write, 1 observer", operations: 2_000) {
    Pair(reference: observedWrites(observers: 1), ours: appends(startingAt: 1_000_000, observer: nil, proxy: true))
  }

  // A `.new` observer: one that asks for `.old` is handed the array as it
  // was, which the append must then copy.
  paired("paired: direct append at 1000000 elements ÷ at 10, 1 .new observer", operations: 2_000) {
    Pair(
      reference: appends(startingAt: 10, observer: [.new], proxy: false),
      ours: appends(startingAt: 1_000_000, observer: [.new], proxy: false)
    )
  }

  paired("paired: computed key over 1000 objects, write to one ÷ its getter, untracked", operations: 200) {
    let model = PairedTotal(cells: 1_000)
    let token = model.observe(\.total, options: [.old, .new]) { _, change in blackHole(change.newValue) }
    let cells = model.cells
    return Pair(
      reference: { count in
        for _ in 0..<count {
          blackHole(model.total)
        }
      },
      ours: kept(token) { index in cells[index % cells.count].value = index }
    )
  }

  // Each observer of a computed key keeps its own observation: one write
  // must cost in proportion to their number, not its square.
  paired("paired: write with 10000 observers of a computed key ÷ with 1000", operations: 4, rounds: 20) {
    Pair(reference: derivedWrites(observers: 1_000), ours: derivedWrites(observers: 10_000))
  }
}

/// `count` writes to a dependency of a computed key that `observers`
/// observers watch.
private func derivedWrites(observers: Int) -> (Int) -> Void {
  let model = PairedDerived()
  let tokens = (0..<observers).map { _ in
    model.observe(\.sum, options: [.old, .new]) { _, change in blackHole(change.newValue) }
  }
  return kept(tokens) { index in model.first = index }
}

/// `count` runs of `operation`, numbered, keeping `kept` alive.
private func kept(_ kept: Any, _ operation: @escaping (Int) -> Void) -> (Int) -> Void {
  { count in
    withExtendedLifetime(kept) {
      for index in 0..<count {
        operation(index)
      }
    }
  }
}

/// `count` appends to an array property that starts with `start`
/// elements and has room for every append of a round: through a proxy or
/// directly, with one observer of `observer` options or none.
private func appends(startingAt start: Int, observer: KeyValueObservingOptions?, proxy: Bool) -> (Int) -> Void {
  let model = PairedListing()
  model.items = Array(0..<start)
  // The warm-up pass and the timed one, with room to spare.
  model.items.reserveCapacity(start + 4_000)
  let token = observer.map { options in
    model.observe(\.items, options: options) { _, change in blackHole(change.newValue) }
  }
  let items = model.mutableArrayValue(for: \.items)
  return { count in
    withExtendedLifetime(token) {
      if proxy {
        for index in 0..<count {
          items.append(index)
        }
      } else {
        for index in 0..<count {
          model.items.append(index)
        }
      }
    }
  }
}

/// `count` classic add + remove pairs on a key `otherObservers` other
/// classic observers observe.
private func classicAddAndRemove(otherObservers: Int) -> (Int) -> Void {
  let model = PairedObserved()
  let observers = (0..<otherObservers).map { _ in PairedSink() }
  for observer in observers { try! model.addObserver(observer, forKeyPath: "value") }
  let observer = PairedSink()
  return { count in
    withExtendedLifetime(observers) {
      for _ in 0..<count {
        try! model.addObserver(observer, forKeyPath: "value")
        model.removeObserver(observer, forKeyPath: "value")
      }
    }
  }
}

/// `count` controller observe + unobserve pairs, by a controller observing
/// `others` other objects.
private func controllerObserveAndUnobserve(others: Int) -> (Int) -> Void {
  let owner = PairedSink()
  let controller = KVOController(observer: owner)
  let observed = (0..<others).map { _ in PairedObserved() }
  for model in observed { controller.observe(model, \.value) { _, _, _ in } }
  let model = PairedObserved()
  return { count in
    withExtendedLifetime((observed, owner)) {
      for _ in 0..<count {
        controller.observe(model, \.value) { _, _, _ in }
        controller.unobserve(model, \.value)
      }
    }
  }
}

/// Writes to the leaf of a 3-link chain through a `weak` link, observed
/// with `options`.
private func weakChainLeafWrites(options: KeyValueObservingOptions) -> (Int) -> Void {
  let root = PairedWeakChainRoot()
  let middle = PairedOptionalChainMiddle()
  root.middle = middle
  let leaf = middle.inner!
  let token = root.observe(\.middle?.inner?.value, options: options) { _, change in blackHole(change.newValue) }
  return kept((token, root, middle)) { index in leaf.value = index }
}

