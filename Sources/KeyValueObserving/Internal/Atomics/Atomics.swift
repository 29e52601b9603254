import Builtin

// The runtime's atomics, for the OS versions teams still ship.
//
// `Atomic` from the standard library's Synchronization module needs macOS 15
// and iOS 18: its generic type's metadata comes from a library older systems
// do not have. These are what it is made of — storage the compiler keeps at
// a fixed address (`@_rawLayout`), each operation one builtin — but each
// type is concrete, so nothing is asked of the runtime and they work as far
// back as Swift runs. The inline types (`AtomicFlag`, `AtomicInt`,
// `AtomicUInt`, `AtomicBits64`) are for stored properties, as `Atomic` is;
// the pointer types are for atomics the runtime lays out in raw memory (a
// storage's cache line) and for the process-wide counters
// (`ProcessCounters.swift`). Noncopyable types are never generic arguments here
// (no `UnsafeMutablePointer<AtomicFlag>`): the runtime of an older system
// cannot make such a type's metadata.

/// The orderings of a load.
@usableFromInline
enum AtomicLoadOrdering {
  case relaxed, acquiring
  /// Also ordered with every other sequentially consistent operation: a
  /// store then a load on two threads (each its own flag, then the
  /// other's) cannot both miss the other's store.
  case sequentiallyConsistent
}

/// The orderings of a store.
@usableFromInline
enum AtomicStoreOrdering {
  case relaxed, releasing, sequentiallyConsistent
}

/// The orderings of a read-modify-write operation.
@usableFromInline
enum AtomicUpdateOrdering {
  case relaxed, acquiring, releasing, acquiringAndReleasing, sequentiallyConsistent
}

/// An atomic `Bool`, stored in place (one byte).
///
/// ```swift
/// let isActive = AtomicFlag(true)
/// if isActive.exchange(false, ordering: .acquiringAndReleasing) { … }
/// ```
@frozen @usableFromInline @_rawLayout(like: UInt8)
struct AtomicFlag: ~Copyable, @unchecked Sendable {
  @_transparent @usableFromInline
  var address: UnsafeMutableRawPointer { UnsafeMutableRawPointer(Builtin.addressOfRawLayout(self)) }

  @_transparent @usableFromInline
  init(_ value: Bool) { address.atomicStore(value ? 1 : 0 as UInt8, ordering: .relaxed) }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> Bool { AtomicFlagPointer(address).load(ordering: ordering) }

  @_transparent @usableFromInline
  func store(_ value: Bool, ordering: AtomicStoreOrdering) { AtomicFlagPointer(address).store(value, ordering: ordering) }

  @_transparent @usableFromInline @discardableResult
  func exchange(_ value: Bool, ordering: AtomicUpdateOrdering) -> Bool {
    AtomicFlagPointer(address).exchange(value, ordering: ordering)
  }
}

/// An atomic `Bool` in raw memory the runtime lays out itself.
///
/// ```swift
/// let closed = AtomicFlagPointer(area + offset)   // after initialize(at:)
/// closed.store(true, ordering: .releasing)
/// ```
@frozen @usableFromInline
struct AtomicFlagPointer: @unchecked Sendable {
  @usableFromInline let address: UnsafeMutableRawPointer

  @_transparent @usableFromInline
  init(_ address: UnsafeMutableRawPointer) { self.address = address }

  /// Makes a flag at `address`, `false`.
  @usableFromInline
  static func initialize(at address: UnsafeMutableRawPointer) {
    address.bindMemory(to: UInt8.self, capacity: 1).initialize(to: 0)
  }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> Bool { address.atomicLoad(UInt8.self, ordering: ordering) != 0 }

  @_transparent @usableFromInline
  func store(_ value: Bool, ordering: AtomicStoreOrdering) { address.atomicStore(value ? 1 : 0 as UInt8, ordering: ordering) }

  @_transparent @usableFromInline @discardableResult
  func exchange(_ value: Bool, ordering: AtomicUpdateOrdering) -> Bool {
    address.atomicExchange(value ? 1 : 0 as UInt8, ordering: ordering) != 0
  }

  @_transparent @usableFromInline
  func compareExchange(expected: Bool, desired: Bool, ordering: AtomicUpdateOrdering) -> (exchanged: Bool, original: Bool) {
    let result = address.atomicCompareExchange(expected: expected ? 1 : 0 as UInt8, desired: desired ? 1 : 0, ordering: ordering)
    return (result.exchanged, result.original != 0)
  }
}

/// An atomic `Int`, stored in place.
///
/// ```swift
/// let open = AtomicInt(0)
/// open.add(1, ordering: .relaxed)
/// ```
@frozen @usableFromInline @_rawLayout(like: Int)
struct AtomicInt: ~Copyable, @unchecked Sendable {
  @_transparent @usableFromInline
  var pointer: AtomicIntPointer { AtomicIntPointer(UnsafeMutableRawPointer(Builtin.addressOfRawLayout(self))) }

  @_transparent @usableFromInline
  init(_ value: Int) { pointer.store(value, ordering: .relaxed) }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> Int { pointer.load(ordering: ordering) }

  @_transparent @usableFromInline @discardableResult
  func add(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    pointer.add(value, ordering: ordering)
  }

  @_transparent @usableFromInline @discardableResult
  func subtract(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    pointer.add(0 &- value, ordering: ordering)
  }

  @_transparent @usableFromInline @discardableResult
  func bitwiseOr(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    pointer.bitwiseOr(value, ordering: ordering)
  }

  @_transparent @usableFromInline @discardableResult
  func max(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    pointer.max(value, ordering: ordering)
  }
}

/// An atomic `Int` at an address: an ``AtomicInt``'s, or a process-wide
/// counter's (see `ProcessCounters.swift`).
@frozen @usableFromInline
struct AtomicIntPointer: @unchecked Sendable {
  @usableFromInline let address: UnsafeMutableRawPointer

  @_transparent @usableFromInline
  init(_ address: UnsafeMutableRawPointer) { self.address = address }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> Int { Int(bitPattern: address.atomicLoad(UInt.self, ordering: ordering)) }

  @_transparent @usableFromInline
  func store(_ value: Int, ordering: AtomicStoreOrdering) { address.atomicStore(UInt(bitPattern: value), ordering: ordering) }

  /// Adds `value`, wrapping on overflow; returns the value before and after.
  @_transparent @usableFromInline @discardableResult
  func add(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    let old = Int(bitPattern: address.atomicAdd(UInt(bitPattern: value), ordering: ordering))
    return (old, old &+ value)
  }

  @_transparent @usableFromInline @discardableResult
  func subtract(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    add(0 &- value, ordering: ordering)
  }

  @_transparent @usableFromInline @discardableResult
  func bitwiseOr(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    let old = Int(bitPattern: address.atomicBitwiseOr(UInt(bitPattern: value), ordering: ordering))
    return (old, old | value)
  }

  /// Keeps the larger of the value and `value`.
  @_transparent @usableFromInline @discardableResult
  func max(_ value: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    let old = Int(bitPattern: address.atomicMax(UInt(bitPattern: value), ordering: ordering))
    return (old, Swift.max(old, value))
  }
}

/// An atomic `UInt` (an address, a thread's identity), stored in place.
///
/// ```swift
/// let registration = AtomicUInt(UInt(bitPattern: pointer))
/// let taken = registration.exchange(0, ordering: .acquiringAndReleasing)
/// ```
@frozen @usableFromInline @_rawLayout(like: UInt)
struct AtomicUInt: ~Copyable, @unchecked Sendable {
  @_transparent @usableFromInline
  var address: UnsafeMutableRawPointer { UnsafeMutableRawPointer(Builtin.addressOfRawLayout(self)) }

  @_transparent @usableFromInline
  init(_ value: UInt) { address.atomicStore(value, ordering: .relaxed) }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> UInt { address.atomicLoad(UInt.self, ordering: ordering) }

  @_transparent @usableFromInline
  func store(_ value: UInt, ordering: AtomicStoreOrdering) { address.atomicStore(value, ordering: ordering) }

  @_transparent @usableFromInline @discardableResult
  func exchange(_ value: UInt, ordering: AtomicUpdateOrdering) -> UInt { address.atomicExchange(value, ordering: ordering) }

  @_transparent @usableFromInline
  func compareExchange(expected: UInt, desired: UInt, ordering: AtomicUpdateOrdering) -> (exchanged: Bool, original: UInt) {
    address.atomicCompareExchange(expected: expected, desired: desired, ordering: ordering)
  }
}

/// An atomic 64-bit mask, stored in place.
///
/// ```swift
/// let observedSlots = AtomicBits64(0)
/// observedSlots.store(mask, ordering: .releasing)
/// ```
@frozen @usableFromInline @_rawLayout(like: UInt64)
struct AtomicBits64: ~Copyable, @unchecked Sendable {
  @_transparent @usableFromInline
  var pointer: AtomicBits64Pointer { AtomicBits64Pointer(UnsafeMutableRawPointer(Builtin.addressOfRawLayout(self))) }

  @_transparent @usableFromInline
  init(_ value: UInt64) { pointer.store(value, ordering: .relaxed) }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> UInt64 { pointer.load(ordering: ordering) }

  @_transparent @usableFromInline
  func store(_ value: UInt64, ordering: AtomicStoreOrdering) { pointer.store(value, ordering: ordering) }
}

/// An atomic 64-bit value in raw memory the runtime lays out itself.
@frozen @usableFromInline
struct AtomicBits64Pointer: @unchecked Sendable {
  @usableFromInline let address: UnsafeMutableRawPointer

  @_transparent @usableFromInline
  init(_ address: UnsafeMutableRawPointer) { self.address = address }

  /// Makes the value at `address`, 0.
  static func initialize(at address: UnsafeMutableRawPointer) {
    address.bindMemory(to: UInt64.self, capacity: 1).initialize(to: 0)
  }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> UInt64 { address.atomicLoad(UInt64.self, ordering: ordering) }

  @_transparent @usableFromInline
  func store(_ value: UInt64, ordering: AtomicStoreOrdering) { address.atomicStore(value, ordering: ordering) }
}

/// An atomic 32-bit count in raw memory the runtime lays out itself.
@frozen @usableFromInline
struct AtomicCount32Pointer: @unchecked Sendable {
  @usableFromInline let address: UnsafeMutableRawPointer

  @_transparent @usableFromInline
  init(_ address: UnsafeMutableRawPointer) { self.address = address }

  /// Makes the count at `address`, 0.
  static func initialize(at address: UnsafeMutableRawPointer) {
    address.bindMemory(to: Int32.self, capacity: 1).initialize(to: 0)
  }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> Int32 { address.atomicLoad(Int32.self, ordering: ordering) }

  @_transparent @usableFromInline @discardableResult
  func add(_ value: Int32, ordering: AtomicUpdateOrdering) -> (oldValue: Int32, newValue: Int32) {
    let old = address.atomicAdd(value, ordering: ordering)
    return (old, old &+ value)
  }

  @_transparent @usableFromInline @discardableResult
  func subtract(_ value: Int32, ordering: AtomicUpdateOrdering) -> (oldValue: Int32, newValue: Int32) {
    add(0 &- value, ordering: ordering)
  }
}

/// An atomic 32-bit value in raw memory the runtime lays out itself: the
/// state of a ``LockWord`` where the lock parks (Linux), whose system call
/// waits on four bytes.
///
/// ```swift
/// let word = AtomicInt32Pointer(address)   // after initialize(at:)
/// if word.exchange(0, ordering: .releasing) == 2 { … }
/// ```
@frozen @usableFromInline
struct AtomicInt32Pointer: @unchecked Sendable {
  @usableFromInline let address: UnsafeMutableRawPointer

  @_transparent @usableFromInline
  init(_ address: UnsafeMutableRawPointer) { self.address = address }

  /// Makes the value at `address`, 0.
  @usableFromInline
  static func initialize(at address: UnsafeMutableRawPointer) {
    address.bindMemory(to: Int32.self, capacity: 1).initialize(to: 0)
  }

  @_transparent @usableFromInline
  func load(ordering: AtomicLoadOrdering) -> Int32 { address.atomicLoad(Int32.self, ordering: ordering) }

  @_transparent @usableFromInline
  func store(_ value: Int32, ordering: AtomicStoreOrdering) { address.atomicStore(value, ordering: ordering) }

  @_transparent @usableFromInline @discardableResult
  func exchange(_ value: Int32, ordering: AtomicUpdateOrdering) -> Int32 { address.atomicExchange(value, ordering: ordering) }

  @_transparent @usableFromInline
  func compareExchange(expected: Int32, desired: Int32, ordering: AtomicUpdateOrdering) -> (exchanged: Bool, original: Int32) {
    address.atomicCompareExchange(expected: expected, desired: desired, ordering: ordering)
  }
}

extension AtomicUInt {
  /// The object whose address is stored, if one is.
  ///
  /// ```swift
  /// let chain = foundChain.loadObject(StoredChain<Value>.self, ordering: .acquiring)
  /// ```
  @_transparent @usableFromInline
  func loadObject<Object: AnyObject>(_: Object.Type, ordering: AtomicLoadOrdering) -> Unmanaged<Object>? {
    UnsafeRawPointer(bitPattern: load(ordering: ordering)).map { Unmanaged.fromOpaque($0) }
  }

  /// Stores `object`'s address unless an address is stored; returns whether
  /// it stored it, and the object stored either way.
  ///
  /// ```swift
  /// let (stored, current) = pointer.storeObjectIfNone(made, ordering: .acquiringAndReleasing)
  /// if !stored { made.release() }
  /// ```
  @_transparent @usableFromInline
  func storeObjectIfNone<Object: AnyObject>(
    _ object: Unmanaged<Object>,
    ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, current: Unmanaged<Object>) {
    let (exchanged, original) = compareExchange(expected: 0, desired: UInt(bitPattern: object.toOpaque()), ordering: ordering)
    return exchanged ? (true, object) : (false, Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: original).unsafelyUnwrapped))
  }
}
