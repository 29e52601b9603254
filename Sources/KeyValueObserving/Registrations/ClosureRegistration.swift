/// A registration made by ``KeyValueObservable/observe(_:options:isolation:fileID:line:changeHandler:)``:
/// a closure that receives the observed object with its static type.
@usableFromInline
final class ClosureRegistration<Object: AnyObject, Value>: _KeyValueHandlerRegistration<Value>,
  @unchecked Sendable
{
  @usableFromInline
  init(
    options: KeyValueObservingOptions,
    slot: Int,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    super.init(options: options, slot: slot, handler: handler)
  }

  override var observerDescription: String {
    "closure (\(Object.self), KeyValueObservedChange<\(Value.self)>)"
  }
}
