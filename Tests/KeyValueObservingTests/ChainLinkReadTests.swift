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
    let replaced = WeakBox<ChainNode>()
    let root = ChainNode(link: ChainNode(a: 1), rememberingLinkIn: replaced)
    let chain = root.observe(\.link?.a, options: .new) { _, _ in }
    let storage = try #require(root._$kvoObservedStorage).takeUnretainedValue()
    // The writer stops in its prior notification, before its store, until
    // this thread holds the lock.
    let meeting = LockMeeting(at: storage)
    let prior = root.observe(\.link, options: .prior) { _, change in
      if change.isPrior { meeting.writerArrives() }
    }
    let handed = UncheckedSendable(root)
    meeting.run {
      if inPlace {
        // Through the property's `_modify`, whose assignments inside
        // replace the old object.
        assignFreshNode(to: &handed.value.link)
      } else {
        handed.value.link = ChainNode(a: 2)
      }
    } whileHeld: { writerWaits in
      // Stored, the writer waits for this lock before it lets go.
      #expect(writerWaits, "the writer never waited for the lock")
      #expect(replaced.object != nil, "the replaced object was freed while a walk could still be reading it")
    }
    #expect(replaced.object == nil, "the write kept the replaced object after the lock")
    withExtendedLifetime((chain, prior)) {}
  }

  @Test(
    "a prior callback's write of the link, assigned or in place, folds into the change, and each store holds what it replaces",
    arguments: [false, true]
  )
  func priorCallbackWriteIsHeld(inPlace: Bool) throws {
    let original = WeakBox<ChainNode>()
    let root = ChainNode(link: ChainNode(a: 1), rememberingLinkIn: original)
    let chain = root.observe(\.link?.a, options: .new) { _, _ in }
    let storage = try #require(root._$kvoObservedStorage).takeUnretainedValue()
    let interim = WeakBox<ChainNode>()
    let meeting = LockMeeting(at: storage)
    let prior = root.observe(\.link, options: .prior) { object, change in
      guard change.isPrior, !interim.wasSet else { return }
      if inPlace {
        // Meets the lock before its write, through `_modify`: a store in
        // place would free the original unheld.
        meeting.writerArrives()
        assignInPlace(&object.link, recordingIn: interim)
      } else {
        do {
          let node = ChainNode(a: 9)
          interim.object = node
          object.link = node
        }
        meeting.writerArrives()
      }
    }
    let handed = UncheckedSendable(root)
    meeting.run {
      // The outer store replaces what the callback stored.
      handed.value.link = ChainNode(a: 2)
    } whileHeld: { writerWaits in
      #expect(writerWaits, "the writer never waited for the lock")
      #expect(interim.object != nil, "a store freed the callback's object while a walk could read it")
      if inPlace {
        #expect(original.object != nil, "the write in place freed the link's object while a walk could read it")
      }
    }
    #expect(original.object == nil && interim.object == nil)
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
    let handed = UncheckedSendable((root, middle))
    // An equal assignment of the first link notifies: the chain reads its
    // value again, link by link, through `middle.link`.
    LockMeeting(at: storage, writerStopsFirst: false).run {
      handed.value.0.link = handed.value.1
    } whileHeld: { writerWaits in
      #expect(writerWaits, "the walk read middle.link without its owner's lock")
    }
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

extension ChainNode {
  /// A root holding `link`, and only it: `box` keeps a weak reference.
  convenience init(link: ChainNode, rememberingLinkIn box: WeakBox<ChainNode>) {
    self.init(link: link)
    box.object = link
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
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
  weak var object: Object? {
    didSet { wasSet = true }
  }
  /// Whether `object` was ever set.
  private(set) var wasSet = false
}

/// A writer on a thread of its own meeting this thread, which holds a
/// storage's lock as a chain's walk would between its load and its retain.
///
/// With `writerStopsFirst`, the writer calls ``writerArrives()`` where it
/// is to meet the lock (in a prior callback, before its store), and waits
/// there until this thread holds it; otherwise this thread takes the lock
/// before the writer starts. This thread then waits until the writer waits
/// for the lock, or finishes without it, and checks what it holds.
private final class LockMeeting: @unchecked Sendable {
  private let storage: _KeyValueObservationStorage
  private let writerStopsFirst: Bool
  private let arrived = DispatchSemaphore(value: 0)
  private let lockHeld = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var isFinished = false

  init(at storage: _KeyValueObservationStorage, writerStopsFirst: Bool = true) {
    self.storage = storage
    self.writerStopsFirst = writerStopsFirst
  }

  /// Called by the writer where it meets the lock.
  func writerArrives() {
    arrived.signal()
    lockHeld.wait()
  }

  /// Runs `write` on a new thread, holds the lock as described, and calls
  /// `whileHeld` with whether the writer waits for it; lets go and waits
  /// for the writer to finish.
  func run(_ write: @escaping @Sendable () -> Void, whileHeld: (_ writerWaits: Bool) -> Void) {
    if !writerStopsFirst { _ = storage.lockState() }
    onNewThread {
      write()
      self.lock.withLock { self.isFinished = true }
      self.finished.signal()
    }
    if writerStopsFirst {
      arrived.wait()
      _ = storage.lockState()
      lockHeld.signal()
    }
    while !storage.lockHasWaiter && !lock.withLock({ isFinished }) { sched_yield() }
    whileHeld(storage.lockHasWaiter)
    storage.unlockState()
    finished.wait()
  }
}
