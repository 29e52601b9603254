/// A derived observation's change under way on one thread, as its entry in
/// the thread's record of changes (``_KeyValueChangeNesting``): the value
/// before it, kept for the did when the observer asked for old values, and
/// the registrations whose wills it still waits a did from.
///
/// The first will of a dependency opens the change; the wills of other
/// dependencies while it is open — a `didSet` that changes a second one —
/// add their registration to it. Each did takes its own registration out,
/// and the did that takes the last one finishes the change: the observation
/// notifies once. A did whose registration sent no will here (the
/// observation started, or the dependency was found, after that will) takes
/// nothing out. Typed, so that the old value is kept and handed back
/// without boxing or a cast.
///
/// An observation has a change of its own, made at its first change and
/// kept, which a thread opens when no other thread has it open, so that a
/// change on one thread at a time allocates nothing and takes one atomic
/// exchange; another thread at the same time opens a change made for it.
///
/// Not API.
@usableFromInline
final class DerivedChange<Value>: PendingChange {
  /// The one key of a derived observation, in the thread's record.
  @usableFromInline static var slot: Int { 0 }

  // The state below is touched only by the thread that has the change
  // open (the observation's own change passes between threads through the
  // atomic exchange that opens it), so it is not checked for exclusive
  // access at run time.

  /// The value before the change, when the observer asked for old values.
  @exclusivity(unchecked) @usableFromInline var oldValue: Value?

  /// The registration whose will opened the change, until its did.
  @exclusivity(unchecked) @usableFromInline var opener: ObjectIdentifier?

  /// The registrations of the wills that joined the change, one entry per
  /// will, until their did.
  @exclusivity(unchecked) @usableFromInline var joined: [ObjectIdentifier] = []

  /// A derived observation's own change (no `sharing`), which names the
  /// observation in the thread's record; or one made for a thread that
  /// found `sharing`, the observation's own, open on another thread, filed
  /// under the same name.
  @usableFromInline
  init(sharing ownChange: DerivedChange? = nil) {
    super.init(owner: ownChange, slot: Self.slot)
  }

  /// Opens the change with `sender`'s will.
  @inlinable
  func open(from sender: ObjectIdentifier, oldValue: Value?) {
    self.opener = sender
    self.oldValue = oldValue
  }

  /// Adds `sender`'s will to the open change.
  @inlinable
  func join(from sender: ObjectIdentifier) {
    joined.append(sender)
  }

  /// Whether taking out `sender`'s will would finish the change: it is
  /// the only will still waiting.
  @inlinable
  func isLastWill(of sender: ObjectIdentifier) -> Bool {
    joined.isEmpty ? opener == sender : opener == nil && joined.count == 1 && joined[0] == sender
  }

  /// Takes out one will of `sender`, if it sent one here; `true` when that
  /// was the last will waiting, which finishes the change.
  @inlinable
  func close(from sender: ObjectIdentifier) -> Bool {
    if let index = joined.lastIndex(of: sender) {
      joined.remove(at: index)
    } else if opener == sender {
      opener = nil
    } else {
      return false
    }
    return opener == nil && joined.isEmpty
  }
}
