/// A registration that receives values of the observed property's own type.
///
/// Not API.
public class _KeyValueValueRegistration<Value>: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: no state of its own; the base class's is guarded.

  /// Hands one change to the observer. `object` is the observed object.
  @usableFromInline func receive(_ change: KeyValueObservedChange<Value>, from object: AnyObject) {
    preconditionFailure("subclass responsibility")
  }
}
