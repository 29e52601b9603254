/// A reference to an object that does not keep it alive and gives it only
/// while it lives, as `weak` does, but without giving it a side table.
///
/// A weak reference moves its object's reference counts into a side table
/// for the rest of the object's life, so that every retain and release of
/// the object — the observation's, and all of its owner's code — takes the
/// runtime's slow path. This keeps the object's memory instead (the
/// runtime's unowned count, which `unowned` uses), and takes a strong
/// reference only if the object is not being deinitialised
/// (`swift_tryRetain`). Where the Objective-C runtime may count an object's
/// references (an `NSObject` subclass), it is a weak reference.
@usableFromInline
struct UnownedReference<Object: AnyObject>: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the address never changes; the runtime's counts
  // are atomic.
  #if canImport(ObjectiveC)
    private weak var reference: Object?

    init(_ object: Object) {
      reference = object
    }

    /// The object, while it lives.
    @usableFromInline
    var object: Object? { reference }
  #else
    private let address: UnsafeMutableRawPointer

    init(_ object: Object) {
      address = Unmanaged.passUnretained(object).toOpaque()
      kvoUnownedRetain(address)
    }

    deinit {
      kvoUnownedRelease(address)
    }

    /// The object, while it lives.
    @inlinable
    var object: Object? {
      retainedObject().map { unsafeDowncast($0, to: Object.self) }
    }

    /// A strong reference to the object, unless its deinit began.
    @usableFromInline
    func retainedObject() -> AnyObject? {
      guard kvoTryRetain(address) != nil else { return nil }
      return Unmanaged<AnyObject>.fromOpaque(address).takeRetainedValue()
    }
  #endif
}
