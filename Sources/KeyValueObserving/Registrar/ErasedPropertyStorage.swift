/// A property's backing storage with its value's type erased: what code
/// that handles every key of an object alike (the model graph, applying a
/// change record) asks of ``_KeyValueTypedStorage``.
protocol ErasedPropertyStorage: AnyObject {
  /// The property's type.
  var valueType: Any.Type { get }
  /// The object's value, boxed.
  func erasedValue(of object: AnyObject) -> Any
}

extension _KeyValueTypedStorage: ErasedPropertyStorage {
  var valueType: Any.Type { Value.self }

  func erasedValue(of object: AnyObject) -> Any { get(object) }
}

extension KeyValueObservable {
  /// The storage of the observable stored property at `slot`, its type
  /// erased, or `nil` where the table hands none (see
  /// `accessStorage(ofSlot:_:staticKeys:)`).
  func erasedStorage(ofSlot slot: Int) -> (any ErasedPropertyStorage)? {
    let (handled, outcome) = accessStorage(ofSlot: slot, .accessors)
    guard handled else { return nil }
    return outcome.accessors as? any ErasedPropertyStorage
  }
}
