import Foundation
@testable import KeyValueObserving
import Testing

/// A chain's links, each holding the next.
@KeyValueObservable
final class ChainNode {
  var a = 0
  var link: ChainNode?
  /// A computed key over the link: read by its getter, not walked.
  var linkedValue: Int { link?.a ?? -1 }

  init(a: Int = 0, link: ChainNode? = nil) {
    self.a = a
    self.link = link
  }
}

/// How a chain's walk and a write of one of its links meet, forced: a
/// walk reads a link under the lock of its owner's storage, and a write
/// holds the object it replaced until it has taken that lock once after
/// its store (KeyValueObservationStorage+LinkReaders.swift). The test holds
/// the lock itself, as a walk would, and sees the other thread wait.
/// Linux only: there the lock's word tells that a thread waits for it.
@Suite("Chain links: read under their owner's lock, held by their writer until then", .enabled(if: lockShowsWaiters))
struct ChainLinkReadTests {
  @Test(
    "a write of a link a chain walks keeps the object it replaced until it has taken the owner's lock",
    arguments: [false, true]
  )
  func writeHoldsTheReplacedObject(inPlace: Bool) throws {
    let root = ChainNode()
    weak var replaced: ChainNode?
    do {
      let old = ChainNode(a: 1)
      root.link = old
      replaced = old
    }
    let chain = root.observe(\.link?.a, options: .new) { _, _ in }
    let storage = try #require(root._$kvoObservedStorage).takeUnretainedValue()
    // The writer stops in its prior notification, before its store, until
    // this thread holds the lock.
    let beforeStore = DispatchSemaphore(value: 0)
    let lockHeld = DispatchSemaphore(value: 0)
    let prior = root.observe(\.link, options: .prior) { _, change in
      guard change.isPrior else { return }
      beforeStore.signal()
      lockHeld.wait()
    }
    let writer = FinishFlag()
    let handed = UncheckedSendable(root)
    onNewThread {
      if inPlace {
        // Through the property's `_modify`, whose assignments inside
        // replace the old object.
        assignFreshNode(to: &handed.value.link)
      } else {
        handed.value.link = ChainNode(a: 2)
      }
      writer.finish()
    }
    beforeStore.wait()
    _ = storage.lockState()
    lockHeld.signal()
    // Stored, the writer waits for this lock before it lets go.
    while !storage.lockHasWaiter && !writer.isFinished { sched_yield() }
    #expect(storage.lockHasWaiter, "the writer never waited for the lock")
    #expect(replaced != nil, "the replaced object was freed while a walk could still be reading it")
    storage.unlockState()
    writer.wait()
    #expect(replaced == nil, "the write kept the replaced object after the lock")
    withExtendedLifetime((chain, prior)) {}
  }

  @Test("a prior callback's write of the link folds into the change: the outer store holds what it replaces")
  func priorCallbackRewriteIsHeld() throws {
    let root = ChainNode(link: ChainNode(a: 1))
    let chain = root.observe(\.link?.a, options: .new) { _, _ in }
    let storage = try #require(root._$kvoObservedStorage).takeUnretainedValue()
    let interim = WeakBox<ChainNode>()
    let beforeStore = DispatchSemaphore(value: 0)
    let lockHeld = DispatchSemaphore(value: 0)
    let prior = root.observe(\.link, options: .prior) { object, change in
      guard change.isPrior, !interim.wasSet else { return }
      let node = ChainNode(a: 9)
      interim.object = node
      // Folds into the change under way; the outer store replaces it.
      object.link = node
      beforeStore.signal()
      lockHeld.wait()
    }
    let writer = FinishFlag()
    let handed = UncheckedSendable(root)
    onNewThread {
      handed.value.link = ChainNode(a: 2)
      writer.finish()
    }
    beforeStore.wait()
    _ = storage.lockState()
    lockHeld.signal()
    while !storage.lockHasWaiter && !writer.isFinished { sched_yield() }
    #expect(storage.lockHasWaiter, "the writer never waited for the lock")
    #expect(interim.object != nil, "the outer store freed the prior callback's object while a walk could read it")
    storage.unlockState()
    writer.wait()
    #expect(interim.object == nil)
    withExtendedLifetime((chain, prior)) {}
  }

  @Test("a write in place inside a prior callback of the link's own change holds what it replaces")
  func inPlaceWriteInPriorCallbackIsHeld() throws {
    let root = ChainNode()
    weak var original: ChainNode?
    do {
      let node = ChainNode(a: 1)
      root.link = node
      original = node
    }
    let chain = root.observe(\.link?.a, options: .new) { _, _ in }
    let storage = try #require(root._$kvoObservedStorage).takeUnretainedValue()
    let inCallback = DispatchSemaphore(value: 0)
    let lockHeld = DispatchSemaphore(value: 0)
    let interim = WeakBox<ChainNode>()
    let prior = root.observe(\.link, options: .prior) { object, change in
      guard change.isPrior, !interim.wasSet else { return }
      inCallback.signal()
      lockHeld.wait()
      // Folds into the change under way, through `_modify`; the outer
      // store then replaces what it stored.
      assignInPlace(&object.link, recordingIn: interim)
    }
    let writer = FinishFlag()
    let handed = UncheckedSendable(root)
    onNewThread {
      handed.value.link = ChainNode(a: 3)
      writer.finish()
    }
    inCallback.wait()
    _ = storage.lockState()
    lockHeld.signal()
    while !storage.lockHasWaiter && !writer.isFinished { sched_yield() }
    #expect(storage.lockHasWaiter, "the writer never waited for the lock")
    #expect(original != nil, "the write in place freed the link's object while a walk could read it")
    #expect(interim.object != nil, "a store freed the callback's object while a walk could read it")
    storage.unlockState()
    writer.wait()
    #expect(original == nil && interim.object == nil)
    withExtendedLifetime((chain, prior)) {}
  }

  @Test(
    "a chain's walk reads each link under its owner's lock, the last one's object included",
    arguments: [false, true]
  )
  func walkReadsUnderTheLock(endsAtObject: Bool) throws {
    let middle = ChainNode(link: ChainNode(a: 1))
    let root = ChainNode(link: middle)
    let chain =
      endsAtObject
      ? root.observe(\.link?.link, options: .new) { _, _ in }
      : root.observe(\.link?.link?.a, options: .new) { _, _ in }
    let storage = try #require(middle._$kvoObservedStorage).takeUnretainedValue()
    _ = storage.lockState()
    let writer = FinishFlag()
    let handed = UncheckedSendable((root, middle))
    // An equal assignment of the first link notifies: the chain reads its
    // value again, link by link, through `middle.link`.
    onNewThread {
      handed.value.0.link = handed.value.1
      writer.finish()
    }
    while !storage.lockHasWaiter && !writer.isFinished { sched_yield() }
    #expect(storage.lockHasWaiter, "the walk read middle.link without its owner's lock")
    storage.unlockState()
    writer.wait()
    withExtendedLifetime(chain) {}
  }

  @Test("a link only a computed key of the class reads is not walked: its writes hold nothing")
  func computedKeyDependencyIsNotWalked() throws {
    let root = ChainNode(link: ChainNode(a: 1))
    let observation = root.observe(\.linkedValue, options: .new) { _, _ in }
    let storage = try #require(root._$kvoObservedStorage).takeUnretainedValue()
    let slots = storage.lockState()
    let walked = slots.contains { $0.walkedByChain }
    storage.unlockState()
    #expect(!walked)
    withExtendedLifetime(observation) {}
  }
}

/// Assigns new nodes to `link` twice in one access, as code given
/// `&node.link` may: the first must never be freed unheld.
private func assignFreshNode(to link: inout ChainNode?) {
  link = ChainNode(a: 5)
  link = ChainNode(a: 2)
}

/// Assigns a new node to `link` in one access, keeping a weak reference
/// to it in `box`.
private func assignInPlace(_ link: inout ChainNode?, recordingIn box: WeakBox<ChainNode>) {
  let node = ChainNode(a: 9)
  box.object = node
  link = node
}

/// Whether the lock's word shows a waiting thread (``LockWord``'s three
/// states): not on Darwin, whose `os_unfair_lock` keeps that to itself.
let lockShowsWaiters: Bool = {
  #if canImport(Darwin)
    false
  #else
    true
  #endif
}()

extension _KeyValueObservationStorage {
  /// Whether a thread waits for the storage's lock.
  var lockHasWaiter: Bool {
    #if canImport(Darwin)
      false
    #else
      LockWord(state.line).word.load(ordering: .acquiring) == LockWord.contended
    #endif
  }
}

extension SlotRegistrations {
  /// Whether some registration of the slot is a chain's.
  var walkedByChain: Bool {
    guard !isEmpty else { return false }
    let snapshot = snapshot(for: nil)
    defer { snapshot.holder.release() }
    return snapshot.isWalkedByChain
  }
}

/// A weak reference that two threads, ordered by semaphores, touch.
private final class WeakBox<Object: AnyObject>: @unchecked Sendable {
  weak var object: Object? {
    didSet { wasSet = true }
  }
  /// Whether `object` was ever set.
  private(set) var wasSet = false
}

/// Set once by another thread when it is done; waited for by the test.
private final class FinishFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var finished = false
  private let done = DispatchSemaphore(value: 0)

  var isFinished: Bool { lock.withLock { finished } }

  func finish() {
    lock.withLock { finished = true }
    done.signal()
  }

  func wait() { done.wait() }
}
