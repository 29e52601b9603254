/// A reference that several closures share, which does not keep its
/// referent alive: an ``UnownedReference`` in a box.
final class SharedUnownedReference<Referent: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: read through the runtime's atomic reference counts.
  private let reference: UnownedReference<Referent>

  init(_ referent: Referent) {
    reference = UnownedReference(referent)
  }

  /// The referent, while it lives.
  var referent: Referent? { reference.object }
}
