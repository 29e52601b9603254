/// The class of the first object on an observed path that an observation
/// asking for ``KeyValueObservingOptions/deallocation`` cannot hear freed:
/// one whose class is not `@KeyValueObservable`, found among the types
/// the path's steps hold (`types`, from its key path where Swift gives
/// them) and the objects it holds now (`values`), or `nil`. (Objects the
/// keys read hold are looked at as each read is resolved: see
/// ``DerivedObservationBase/reportUnheardDeallocation(of:)``.)
///
/// ```swift
/// unheardDeallocationClass(types: [Theme?.self, String.self], values: [])  // Theme
/// ```
func unheardDeallocationClass(types: [Any.Type], values: [Any?]) -> Any.Type? {
  for type in types {
    let unwrapped = unwrappedType(type)
    if unwrapped is AnyObject.Type, !(unwrapped is any KeyValueObservable.Type) { return unwrapped }
  }
  for value in values {
    guard let value = flattened(value), type(of: value) is AnyObject.Type, !(value is any KeyValueObservable) else {
      continue
    }
    return type(of: value)
  }
  return nil
}
