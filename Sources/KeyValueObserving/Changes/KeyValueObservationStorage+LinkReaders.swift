// Writes of a key that a chain's walk reads from other threads: the write
// keeps the object it replaced until the walks that may have read it are
// done with it.
//
// A walk (`StoredChain`) reads a link and retains the object it holds, on a
// thread that may never have touched the link's owner. A write of the link
// on another thread releases the object it replaces, which may free it
// between the walk's load and its retain. So each side takes the lock of
// the link owner's storage:
//
// - the walk loads and retains under the lock;
// - each store holds the object it replaces from just before the store
//   until it has taken that lock once after it, and lets go before the
//   change reads its new value (`makeChange`). A store folding into the
//   change (a prior callback's, a `didSet`'s) is a setter's too: a link is
//   never modified in place, its `_modify` assigns a copy back.
//
// A walk that took the lock before the write did has retained the object
// while the write still held it. One that takes it after reads the new
// object, stored before the write's lock. No user code runs under the lock:
// the walk loads and retains, and the write releases after unlocking.

extension _KeyValueObservationStorage {
  /// Takes the lock once and lets it go, after a write of a key a chain
  /// walks has stored its value and before it releases the one it
  /// replaced: every walk that read the replaced object under the lock has
  /// retained it by then.
  @usableFromInline @inline(never)
  func letLinkReadersFinish() {
    _ = lockState()
    unlockState()
  }

  /// Makes the store of a change (`change`). When `holdsReplacedLink`, the
  /// key is a link a chain walks: the store holds the value `replaced`
  /// reads, what it replaces, until the walks that may have read it are
  /// done, and lets go before the change reads its new value
  /// (KeyValueObservationStorage+LinkReaders.swift).
  @inlinable @inline(__always)
  func store<Object: AnyObject, Value>(
    _ object: Object,
    holdsReplacedLink: Bool,
    readingReplaced replaced: (Object) -> Value,
    change: (Object) -> Void
  ) {
    guard holdsReplacedLink else { return change(object) }
    let held = replaced(object)
    change(object)
    withExtendedLifetime(held) { letLinkReadersFinish() }
  }
}

/// How a property's value holds an object a chain's walk follows: itself a
/// class reference, or an optional one (`weak` too); `nil` for any other
/// value, an existential's included (its witness table travels with it).
///
/// Only a write of such a key holds what it replaces for the walks: a
/// plain value frees nothing, and any other value is the class's own (see
/// the Safety article).
@usableFromInline
enum ObjectLink {
  case object
  case optionalObject

  @usableFromInline
  init?<Value>(_: Value.Type) {
    if Value.self is AnyObject.Type, MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size {
      self = .object
    } else if let optional = Value.self as? any OptionalValue.Type, optional.wrappedType is AnyObject.Type,
      MemoryLayout<Value>.size == MemoryLayout<AnyObject?>.size
    {
      self = .optionalObject
    } else {
      return nil
    }
  }
}
