/// The header of a ``RegistrationList``: its length and what its live
/// registrations ask for.
@usableFromInline
struct RegistrationListHeader {
  /// How many entries are initialised (holes included).
  @usableFromInline var count: Int32 = 0
  /// How many entries are live registrations.
  var liveCount: Int32 = 0
  /// How many live registrations asked for `.old`, `.new` and `.prior`.
  var oldValueCount: Int32 = 0
  var newValueCount: Int32 = 0
  var priorCount: Int32 = 0
  /// Whether a change took a snapshot of the list since it was last known
  /// to be unread.
  var isShared = false

  /// Counts a registration with `options` in (`delta` 1) or out (-1).
  mutating func tally(_ options: KeyValueObservingOptions, by delta: Int32) {
    liveCount += delta
    if options.contains(.old) { oldValueCount += delta }
    if options.contains(.new) { newValueCount += delta }
    if options.contains(.prior) { priorCount += delta }
  }
}

/// A list of registrations with holes, in one allocation.
///
/// Not API.
@usableFromInline
final class RegistrationList: ManagedBuffer<RegistrationListHeader, _KeyValueRegistration?> {
  static func make(capacity: Int) -> RegistrationList {
    let buffer = create(minimumCapacity: capacity) { _ in RegistrationListHeader() }
    return unsafeDowncast(buffer, to: RegistrationList.self)
  }

  /// The address of the registration at `index`, `nil` for a hole; read
  /// without taking a reference.
  func address(at index: Int) -> UnsafeMutableRawPointer? {
    withUnsafeMutablePointerToElements { elements in
      UnsafeRawPointer(elements + index).load(as: UnsafeMutableRawPointer?.self)
    }
  }

  /// The live registrations, in order.
  var liveRegistrations: [_KeyValueRegistration] {
    withUnsafeMutablePointers { header, elements in
      UnsafeBufferPointer(start: elements, count: Int(header.pointee.count)).compactMap { $0 }
    }
  }

  /// How many entries are initialised, holes included. Read through a
  /// pointer: `header` is a class property, checked for exclusive access
  /// at run time.
  var used: Int {
    withUnsafeMutablePointerToHeader { Int($0.pointee.count) }
  }

  deinit {
    withUnsafeMutablePointers { header, elements in
      _ = elements.deinitialize(count: Int(header.pointee.count))
    }
  }
}
