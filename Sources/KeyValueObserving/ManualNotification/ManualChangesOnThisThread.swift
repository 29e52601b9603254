/// How many manual changes (a will-change waiting for its did-change) are
/// open on the current thread.
///
/// A setter records its change in the thread's record of changes when a
/// manual change is open on its thread, so that a manual change of its own
/// key finds it; otherwise it skips the record. The decision must not
/// depend on other threads: a process-wide count made a change take the
/// record whenever any thread had a manual change open (or had leaked one).
/// The two paths still differ for a change of a key nested in a prior
/// callback of the same key after its prior registrations went (the record
/// folds it into the outer change, the plain path notifies it): see the
/// CHANGELOG's known issue.
@usableFromInline
enum ManualChangesOnThisThread {
  private static let count = ThreadLocal(.openManualChanges)

  /// Counts one more, or (`by: -1`) one fewer, open on this thread.
  static func add(_ delta: Int) {
    let current = Int(bitPattern: count.value)
    count.value = UnsafeMutableRawPointer(bitPattern: current &+ delta)
  }

  /// Whether a manual change is open on this thread.
  @usableFromInline
  static var areOpen: Bool { count.value != nil }
}
