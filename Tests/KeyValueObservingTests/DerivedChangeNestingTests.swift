import Dispatch
import KeyValueObserving
import Testing

/// A link whose own `didSet` can hold a change open, so that a test can act
/// between the will and the did of a change of `value`.
@KeyValueObservable
final class Stage: @unchecked Sendable {
  var value = 0 {
    didSet { whileChanging?() }
  }
  @KeyValueIgnored var whileChanging: (() -> Void)?
}

/// The root of a chain through a replaceable ``Stage``.
@KeyValueObservable
final class Rig: @unchecked Sendable {
  var stage: Stage?
  var reading: Int { stage?.value ?? -1 }
}

/// A computed key over two stored properties, the first of which sets the
/// second in its `didSet`: one assignment is two nested changes of what the
/// key depends on.
@KeyValueObservable
final class ScaledReading {
  var raw = 0 {
    didSet { scaled = raw * 10 }
  }
  var scaled = 0
  var total: Int { raw + scaled }
}

/// A derived key's change is one frame in the thread's nesting of changes,
/// opened at a dependency's will and closed at its did — also when the
/// dependency's registration, or the whole observation, ends in between.
@Suite("Derived keys: nested changes open and close in the thread's record")
struct DerivedChangeNestingTests {
  @Test("many observers of one computed key each hear a nested change once, from before it to after it")
  func manyObserversOfANestedChange() {
    let reading = ScaledReading()
    let heard = Recorder<String>()
    let tokens = (0..<300).map { index in
      reading.observe(\.total, options: [.old, .new]) { _, change in
        heard.append("\(index): \(change.oldValue!) → \(change.newValue!)")
      }
    }
    reading.raw = 1
    reading.raw = 2
    #expect(heard.elements == (0..<300).map { "\($0): 0 → 11" } + (0..<300).map { "\($0): 11 → 22" })
    withExtendedLifetime(tokens) {}
  }

  @Test("a dependency replaced by another thread mid-change: this thread's change still closes, and later changes are heard")
  func dependencyReplacedMidChange() {
    let first = Stage()
    let second = Stage()
    let rig = Rig()
    rig.stage = first
    let heard = Recorder<Int>()
    let token = rig.observe(\.reading, options: .new) { _, change in heard.append(change.newValue!) }

    // Given: this thread is inside a change of first.value (its will sent,
    // its did not yet) ...
    let inside = DispatchSemaphore(value: 0)
    let replaced = DispatchSemaphore(value: 0)
    first.whileChanging = {
      inside.signal()
      replaced.wait()
    }
    let shared = UncheckedBox(rig)
    onNewThread {
      inside.wait()
      // ... when another thread replaces the stage: the observation now
      // depends on second.value, and its registration on first.value ends.
      shared.value.stage = second
      replaced.signal()
    }
    first.value = 1
    first.whileChanging = nil

    // Then: this thread's change closed with first.value's did, so a later
    // change here is heard, once.
    let before = heard.count
    second.value = 5
    #expect(heard.count == before + 1)
    #expect(heard.elements.last == 5)
    #expect(allRegistrations(on: first).isEmpty)
    _ = token
  }

  @Test("a derived observation invalidated between a dependency's will and did: nothing more arrives, and nothing keeps it")
  func invalidatedMidChange() {
    let rig = Rig()
    let stage = Stage()
    rig.stage = stage
    let heard = Counter()
    let freed = Counter()
    let holder = TokenHolder()
    do {
      let capture = DeinitCounter(freed)
      holder.token = rig.observe(\.reading, options: [.prior, .new]) { _, _ in
        _ = capture
        heard.increment()
      }
    }
    stage.whileChanging = { holder.token?.invalidate() }
    stage.value = 1
    #expect(heard.count == 1, "the prior notification only")
    // The token does not own the observation: once the change is over,
    // nothing does — the thread's record of the change let it go too.
    #expect(freed.count == 1)
    stage.whileChanging = nil
    stage.value = 2
    #expect(heard.count == 1)
    #expect(allRegistrations(on: stage).isEmpty)
  }
}
