/// The writes bindings are making on the current thread, innermost first:
/// how chains and rings of bindings settle in one pass.
///
/// A binding's write is a change, and the change's observers may be other
/// bindings, which write on: `a → b → c`. When the chain comes back to a
/// property a write under way carries *from* — a ring `a → b → c → a`,
/// the same two-way binding made twice, a triangle `a ⇄ b ⇄ c ⇄ a` — the
/// value has come back to where its change started, and carrying it on
/// would only start the ring again. So a binding does not write a property
/// that a write under way on its thread reads from. (It may write one that
/// a write further out is writing: that is a correction, which the outer
/// binding is told of and carries on.)
///
/// Each entry lives on the stack of the write it describes (no
/// allocation), headed by one thread-local pointer.
enum BindingWriteChain {
  /// One write under way: the property it carries from, named by its
  /// object and its key path.
  struct Entry {
    let from: BoundProperty
    let outer: UnsafeMutablePointer<Entry>?
  }

  private static let innermost = ThreadLocal(.bindingWrite)

  /// Whether a write under way on this thread carries from `property`.
  static func carriesFrom(_ property: BoundProperty) -> Bool {
    var cursor = innermost.value?.assumingMemoryBound(to: Entry.self)
    while let entry = cursor {
      if entry.pointee.from == property { return true }
      cursor = entry.pointee.outer
    }
    return false
  }

  /// Runs `write`, recorded as carrying from `property` on this thread.
  static func carrying<Result>(from property: BoundProperty, _ write: () -> Result) -> Result {
    let outer = innermost.value?.assumingMemoryBound(to: Entry.self)
    var entry = Entry(from: property, outer: outer)
    return withUnsafeMutablePointer(to: &entry) { entry in
      innermost.value = UnsafeMutableRawPointer(entry)
      defer { innermost.value = outer.map(UnsafeMutableRawPointer.init) }
      return write()
    }
  }
}

/// One side of a binding as the write chain names it: an object and a key
/// path of its class.
struct BoundProperty: Equatable {
  let object: ObjectIdentifier
  /// Kept alive by the binding, which holds its key paths.
  unowned(unsafe) let keyPath: AnyKeyPath

  static func == (lhs: BoundProperty, rhs: BoundProperty) -> Bool {
    lhs.object == rhs.object && (lhs.keyPath === rhs.keyPath || lhs.keyPath == rhs.keyPath)
  }
}
