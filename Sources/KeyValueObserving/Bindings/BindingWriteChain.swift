/// The writes bindings are making on the current thread, innermost first:
/// how chains and rings of bindings whose values are not `Equatable`
/// settle in one pass (an `Equatable` value equal to what the property
/// holds is not written, which stops a ring by itself).
///
/// A binding's write is a change, and the change's observers may be other
/// bindings, which write on: `a → b → c`. When the chain comes back to a
/// property a write under way carries *from* — a ring `a → b → c → a`,
/// the same two-way binding made twice, a triangle `a ⇄ b ⇄ c ⇄ a` — the
/// value has come back to where its change started, and carrying it on
/// would only start the ring again. So a binding does not write a property
/// that a write under way on its thread reads from, unless that write's
/// binding ended meanwhile. (It may write one that
/// a write further out is writing: that is a correction, which the outer
/// binding is told of and carries on.)
///
/// Each entry lives on the stack of the write it describes (no
/// allocation), headed by one thread-local pointer. Only a binding whose
/// written value is not `Equatable` reads the chain; while no such binding
/// lives (``lookingBindings``), writes do not record themselves. One made
/// during a write under way misses that write's entry, and may carry a
/// ring's value once more before its own entry stops it.
@usableFromInline
enum BindingWriteChain {
  /// One write under way: the property it carries from, the flag that
  /// says whether its binding ended (a binding ended during its write —
  /// its token invalidated by an observer of the side it writes — blocks
  /// no other: one made in its place must be able to write), and the
  /// entry of the write further out.
  @usableFromInline
  struct Entry {
    @usableFromInline let from: BoundProperty
    @usableFromInline let ended: AtomicFlagPointer
    @usableFromInline var outer: UnsafeMutableRawPointer?

    @inlinable
    init(from: BoundProperty, ended: AtomicFlagPointer) {
      self.from = from
      self.ended = ended
      self.outer = nil
    }
  }

  private static let innermost = ThreadLocal(.bindingWrite)

  /// Whether a write under way on this thread carries from `property`.
  static func carriesFrom(_ property: BoundProperty) -> Bool {
    var cursor = innermost.value?.assumingMemoryBound(to: Entry.self)
    while let entry = cursor {
      if entry.pointee.from == property && !entry.pointee.ended.load(ordering: .acquiring) { return true }
      cursor = entry.pointee.outer?.assumingMemoryBound(to: Entry.self)
    }
    return false
  }

  /// Records `entry`, on the caller's stack, as the innermost write on
  /// this thread, until ``leave(_:)`` — unless a write under way on this
  /// thread carries from `written`, the property the new write would
  /// write: then it records nothing and returns `false`. One call, so
  /// that a write on a thread where no binding writes (the common case)
  /// costs one look at the thread's record.
  @usableFromInline
  static func enter(_ entry: UnsafeMutablePointer<Entry>, unlessCarryingFrom written: BoundProperty?) -> Bool {
    let outer = innermost.value
    if outer != nil, let written, carriesFrom(written) { return false }
    entry.pointee.outer = outer
    innermost.value = UnsafeMutableRawPointer(entry)
    return true
  }

  /// Takes `entry`, the innermost, off the record.
  @usableFromInline
  static func leave(_ entry: UnsafeMutablePointer<Entry>) {
    innermost.value = entry.pointee.outer
  }
}

/// One side of a binding as the write chain names it: an object and a key
/// path of its class.
@usableFromInline
struct BoundProperty: Equatable {
  @usableFromInline let object: ObjectIdentifier
  /// Kept alive by the binding, which holds its key paths.
  @usableFromInline unowned(unsafe) let keyPath: AnyKeyPath

  @inlinable
  init(object: ObjectIdentifier, keyPath: AnyKeyPath) {
    self.object = object
    self.keyPath = keyPath
  }

  @usableFromInline
  static func == (lhs: BoundProperty, rhs: BoundProperty) -> Bool {
    lhs.object == rhs.object && (lhs.keyPath === rhs.keyPath || lhs.keyPath == rhs.keyPath)
  }
}
