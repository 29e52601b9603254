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
