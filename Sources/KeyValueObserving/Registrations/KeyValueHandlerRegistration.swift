/// A registration whose handler the notification loop calls itself: a closure
/// of the observed object and the change, kept with the object's type
/// erased, so that the loop, compiled once per value type, calls it
/// without a virtual call or a cast.
///
/// Not API.
public class _KeyValueHandlerRegistration<Value>: _KeyValueValueRegistration<Value>, @unchecked Sendable {
  // @unchecked Sendable: the handler is called only on the thread that made a
  // change, which is where the caller of `observe` said changes would happen.

  /// The handler, as it was given, `(Object, KeyValueObservedChange<Value>)
  /// -> Void`, seen as a function of `AnyObject` (see ``init(options:slot:handler:)``).
  @usableFromInline let handler: (AnyObject, KeyValueObservedChange<Value>) -> Void

  /// Keeps `handler`, a function of an `Object`, as a function of any
  /// object: the slot lists of an object hold only registrations made on
  /// that object, so the object it is called with is always an `Object`.
  ///
  /// The handler is reinterpreted, not wrapped, so that a registration
  /// allocates no second closure and a notification makes no second call. This
  /// is sound because a class type and `AnyObject` have one
  /// representation, a single reference, and are passed the same way, so
  /// the two function types are called alike. It is reinterpreted inside a
  /// struct: a function handed to `unsafeBitCast` itself would be wrapped
  /// twice, to and from the most general form of a function.
  @usableFromInline
  init<Object: AnyObject>(
    options: KeyValueObservingOptions,
    slot: Int,
    handler: @escaping (Object, KeyValueObservedChange<Value>) -> Void
  ) {
    self.handler = unsafeBitCast(Handler(function: handler), to: Handler<AnyObject>.self).function
    super.init(options: options, slot: slot, receiver: .handler)
  }

  /// A handler of `Object`s, as a struct's field holds it.
  private struct Handler<Object: AnyObject> {
    let function: (Object, KeyValueObservedChange<Value>) -> Void
  }
}
