/// The registrations of a derived observation with what its value depends
/// on, in the order its reads found them: the first two inline, the rest in
/// an array, so that the common observation — of one or two keys — keeps
/// its list in its own object, with no allocation of its own.
///
/// ```swift
/// var list: RegisteredDependencies = []
/// list.append(registration)   // inline
/// for registration in list { registration.remove() }
/// ```
@usableFromInline
struct RegisteredDependencies: RandomAccessCollection, ExpressibleByArrayLiteral {
  @usableFromInline var first: DependencyRegistration?
  @usableFromInline var second: DependencyRegistration?
  /// The third and later; `nil` while there are two or fewer, so that a
  /// copy of a short list retains only what it holds.
  @usableFromInline var rest: [DependencyRegistration]? = nil

  @usableFromInline
  init(arrayLiteral elements: DependencyRegistration...) {
    for element in elements { append(element) }
  }

  @usableFromInline var startIndex: Int { 0 }

  @usableFromInline var endIndex: Int {
    first == nil ? 0 : second == nil ? 1 : 2 + (rest?.count ?? 0)
  }

  @usableFromInline
  subscript(position: Int) -> DependencyRegistration {
    switch position {
    case 0: return first.unsafelyUnwrapped
    case 1: return second.unsafelyUnwrapped
    default: return rest.unsafelyUnwrapped[position - 2]
    }
  }

  mutating func append(_ registration: DependencyRegistration) {
    if first == nil {
      first = registration
    } else if second == nil {
      second = registration
    } else {
      if rest == nil { rest = [] }
      rest!.append(registration)
    }
  }

  mutating func reserveCapacity(_ count: Int) {
    if count > 2 {
      if rest == nil { rest = [] }
      rest!.reserveCapacity(count - 2)
    }
  }
}
