/// Remembers which slot a key path names when the key table could only find
/// out by building key paths rooted at a generic type (a subclass's type, or
/// a generic class), which costs a type lookup by mangled name per build.
///
/// Keyed by the identity of the key path, of the root type, and of the class
/// whose own keys were searched (each class of a hierarchy searches its own
/// and asks its superclass for the rest). A cached key
/// path is kept alive, so its address cannot be reused by another key path
/// while the entry exists; the cache holds at most `limit` entries and starts
/// over when full, so key paths built on the fly cannot grow it without
/// bound.
///
/// The key table's probe for key paths rooted at a subclass
/// (``_KeyValueKeyTable/slot(for:in:probe:)``) goes through it.
enum _KeyPathSlotCache {
  private struct Key: Hashable {
    let keyPath: ObjectIdentifier
    let root: ObjectIdentifier
    let table: ObjectIdentifier
  }

  private struct Entry {
    let keyPath: AnyKeyPath
    let slot: Int?
  }

  private static let entries = LockedState([Key: Entry]())
  private static let limit = 4_096

  /// The slot `keyPath` names among the keys `table` declares, for key
  /// paths rooted at `root`; computed once per key path, root and table.
  static func slot(
    for keyPath: AnyKeyPath,
    in root: Any.Type,
    declaredIn table: Any.Type,
    orCompute compute: () -> Int?
  ) -> Int? {
    let key = Key(keyPath: ObjectIdentifier(keyPath), root: ObjectIdentifier(root), table: ObjectIdentifier(table))
    if let entry = entries.withLock({ $0[key] }) {
      return entry.slot
    }
    let slot = compute()
    let evicted: [Key: Entry]? = entries.withLock { entries in
      var evicted: [Key: Entry]?
      if entries.count >= limit {
        evicted = entries
        entries = [:]
      }
      entries[key] = Entry(keyPath: keyPath, slot: slot)
      return evicted
    }
    // Evicted key paths are released after the lock.
    _ = evicted
    return slot
  }
}
