/// A ``KVOController`` as its observations name it: its description, and
/// the way to the other objects it observes, for
/// ``KeyValueObservationGraph``. One per controller, held by each of its
/// registrations; it does not keep the controller alive.
@usableFromInline
package final class ControllerIdentity: @unchecked Sendable {
  // @unchecked Sendable: `controller` is written once, before the
  // identity is shared, and read through the runtime's weak references;
  // the controller lists its objects under its own lock.

  /// `KVOController<Observer>`.
  let description: String

  /// Set once, by the controller's initializer, before anything else can
  /// see this object.
  private weak var controller: (any ObservedObjectsListing)?

  init(description: String) {
    self.description = description
  }

  /// Names `controller` as the one this identifies; called once, from its
  /// initializer.
  func attach(_ controller: some ObservedObjectsListing) {
    self.controller = controller
  }

  /// The objects the controller observes now, in the order it began
  /// observing them; empty once it is freed.
  func observedObjects() -> [AnyObject] {
    controller?.observedObjects() ?? []
  }
}
