/// Whether a key's values can hold objects a model graph follows: worked
/// out once per class and key from the key's type, so that a write to a
/// key that cannot (a number, a string) looks at no value.
enum GraphLinkShape: Equatable {
  /// The type holds no object: nothing to follow.
  case none
  /// One object or none: a class type, an optional or `weak` one.
  case toOne
  /// Many: an array, a set or a dictionary of them (or of optionals).
  case toMany
  /// A type that may hold an object whatever it is (`Any`, a protocol): its
  /// values are looked at.
  case unknown

  /// The shape of a key whose values are `type`s.
  init(_ type: Any.Type) {
    if type is AnyObject.Type || type == AnyObject.self {
      self = .toOne
    } else if let optional = type as? any OptionalValue.Type {
      let wrapped = GraphLinkShape(optional.wrappedType)
      self = wrapped == .none ? .none : (wrapped == .toMany ? .toMany : .toOne)
    } else if let container = type as? any GraphContainer.Type {
      self = GraphLinkShape(container.followedElementType) == .none ? .none : .toMany
    } else if Self.holdsNoReference(type) || type == String.self || type == Substring.self {
      self = .none
    } else {
      self = .unknown
    }
  }

  /// Whether values of `type` are plain bytes, with no reference in them.
  private static func holdsNoReference(_ type: Any.Type) -> Bool {
    func isPlain<T>(_: T.Type) -> Bool { _isPOD(T.self) }
    return _openExistential(type, do: isPlain)
  }
}

/// A collection whose elements a model graph follows: arrays, sets and
/// dictionaries (their values).
protocol GraphContainer {
  /// The type of the elements followed.
  static var followedElementType: Any.Type { get }
  /// The elements followed, boxed.
  var graphElements: [Any] { get }
}

extension Array: GraphContainer {
  static var followedElementType: Any.Type { Element.self }
  var graphElements: [Any] { map { $0 as Any } }
}

extension ContiguousArray: GraphContainer {
  static var followedElementType: Any.Type { Element.self }
  var graphElements: [Any] { map { $0 as Any } }
}

extension Set: GraphContainer {
  static var followedElementType: Any.Type { Element.self }
  var graphElements: [Any] { map { $0 as Any } }
}

extension Dictionary: GraphContainer {
  static var followedElementType: Any.Type { Value.self }
  var graphElements: [Any] { values.map { $0 as Any } }
}

/// The objects `value` holds, as a model graph follows them: the value
/// itself when it is an object, the wrapped value of an optional, and the
/// elements of an array, a set or a dictionary, at any depth.
func graphObjects(in value: Any, into objects: inout [AnyObject]) {
  if let optional = value as? any OptionalValue {
    if let wrapped = optional.wrappedValue { graphObjects(in: wrapped, into: &objects) }
  } else if let container = value as? any GraphContainer {
    for element in container.graphElements { graphObjects(in: element, into: &objects) }
  } else if type(of: value) is AnyClass {
    objects.append(value as AnyObject)
  }
}
