/// How a binding made with `coalesced: true` carries its changes: once per
/// job of the actor it was made on, after that job, reading the side that
/// changed last anew, as a coalesced tracked closure runs (the rule is
/// ``CoalescedJob``'s). Made only for such a binding: the others keep one
/// `nil` reference.
///
/// ```swift
/// let coalescing = BindingCoalescing(isolation: MainActor.shared, site: site)
/// coalescing?.request(.source) { { side in binding.carry(from: side) } }
/// ```
@usableFromInline
final class BindingCoalescing: @unchecked Sendable {
  // @unchecked Sendable: the job is one atomic word; the actor is
  // immutable.

  /// Which sides changed since the waiting job was enqueued
  /// (``bit(_:)``), and ``targetLast`` when the target changed last.
  private let job = CoalescedJob()
  /// Where the job runs: the actor the binding was made on.
  private let actor: any Actor

  private static let targetLast: UInt = 4

  private static func bit(_ side: KeyValueBindingSide) -> UInt { side == .source ? 1 : 2 }

  /// The coalescing of a binding made on `isolation`, at `site`; `nil`,
  /// reported, with no actor: then there is no job to coalesce into, and
  /// the binding writes at each change.
  @usableFromInline
  init?(isolation: (any Actor)?, site: RegistrationSite) {
    guard let isolation else {
      reportProblem(
        .coalescingWithoutActor,
        "bind(…, coalesced: true) at \(site.description ?? "a call") is isolated to no actor, so there is no job "
          + "to coalesce changes into: it writes after each change; make the binding on the actor whose jobs "
          + "should coalesce them (the main actor, for UI code)"
      )
      return nil
    }
    actor = isolation
  }

  /// `side` changed: asks for the job, which hands the side that changed
  /// last to the closure `makeCarry` makes, once per job of the actor.
  /// `makeCarry` is called only by the change that enqueues the job.
  @usableFromInline
  func request(_ side: KeyValueBindingSide, carrying makeCarry: () -> (KeyValueBindingSide) -> Void) {
    let asked = job.request { current in
      let sides = current | Self.bit(side)
      return side == .target ? sides | Self.targetLast : sides & ~Self.targetLast
    }
    guard asked else { return }
    let carry = Carry(body: makeCarry())
    CoalescedJob.enqueue(on: actor) { [self] in
      let asked = job.start()
      carry.body(asked & Self.targetLast != 0 ? .target : .source)
    }
  }

  /// The binding's typed carry, handed to its job.
  private struct Carry: @unchecked Sendable {
    // @unchecked Sendable: it captures the binding, which is Sendable,
    // and the metadata of its generic types, which is immutable; Swift
    // counts a generic metatype as not Sendable.
    let body: (KeyValueBindingSide) -> Void
  }
}

extension PropertyBinding {
  /// `side` changed, as its registration tells: carried at once, or, for
  /// a coalesced binding, after the job of its actor (see
  /// ``BindingCoalescing``). A change told during the binding's own write
  /// on this thread — its echo, a correction — is the gate's to take at
  /// once, coalesced or not (see ``carry(from:sourceObject:isFirst:)``).
  @inlinable
  func changed(_ side: KeyValueBindingSide, sourceObject: Source? = nil) {
    if let coalescing, gate.load(ordering: .relaxed) >> Self.threadShift != currentThreadIdentity() {
      // The job holds the binding, not its objects, until it runs; one
      // that runs after the binding ended carries nothing.
      coalescing.request(side) {
        { [self] side in
          guard !ended.load(ordering: .acquiring) else { return }
          carry(from: side)
        }
      }
      return
    }
    carry(from: side, sourceObject: sourceObject)
  }
}
