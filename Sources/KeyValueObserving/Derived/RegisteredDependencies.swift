/// The registrations of a derived observation with what its value depends
/// on, in the order its reads found them: up to two inline, more in an
/// array that then holds them all, so that the common observation — of
/// one or two keys — keeps its list in its own object, with no allocation
/// of its own, and a long one is indexed as an array.
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
  /// Every registration, once there are more than two (`first` and
  /// `second` are `nil` then); `nil` while there are two or fewer, so that
  /// a copy of a short list retains only what it holds.
  @usableFromInline var all: [DependencyRegistration]? = nil

  @usableFromInline
  init(arrayLiteral elements: DependencyRegistration...) {
    for element in elements { append(element) }
  }

  @usableFromInline var startIndex: Int { 0 }

  @usableFromInline var endIndex: Int {
    if let all { return all.count }
    return first == nil ? 0 : second == nil ? 1 : 2
  }

  @usableFromInline
  subscript(position: Int) -> DependencyRegistration {
    if let all { return all[position] }
    return (position == 0 ? first : second).unsafelyUnwrapped
  }

  mutating func append(_ registration: DependencyRegistration) {
    if all != nil {
      all!.append(registration)
    } else if first == nil {
      first = registration
    } else if second == nil {
      second = registration
    } else {
      all = [first.unsafelyUnwrapped, second.unsafelyUnwrapped, registration]
      first = nil
      second = nil
    }
  }

  mutating func reserveCapacity(_ count: Int) {
    guard count > 2 else { return }
    if all == nil {
      var moved: [DependencyRegistration] = []
      moved.reserveCapacity(count)
      if let first { moved.append(first) }
      if let second { moved.append(second) }
      all = moved
      first = nil
      second = nil
    } else {
      all!.reserveCapacity(count)
    }
  }
}
