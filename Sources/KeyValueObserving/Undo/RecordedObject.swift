/// An object whose changes an undo stack keeps, shared by those changes:
/// held without keeping it alive (``UnownedReference``), and given back
/// only while it lives, so that a freed object's changes are dropped.
///
/// Shared, and made at the first change of its object: a weak reference
/// in each change cost about 150 instructions a change, to form, move and
/// destroy, and a change holding one could not be moved bit by bit.
final class RecordedObject {
  private let reference: UnownedReference<AnyObject>
  /// The object's identity.
  let identity: ObjectIdentifier

  init(_ object: AnyObject) {
    reference = UnownedReference(object)
    identity = ObjectIdentifier(object)
  }

  /// The object, while it lives.
  var object: AnyObject? { reference.object }

  /// Whether this refers to `object`, which lives.
  func refers(to object: AnyObject) -> Bool {
    guard identity == ObjectIdentifier(object) else { return false }
    #if canImport(ObjectiveC)
      // A weak reference there: a freed object's address may be taken
      // by another object since.
      return self.object === object
    #else
      // The unowned reference keeps the object's memory, so no other
      // object has its address while this lives.
      return true
    #endif
  }
}
