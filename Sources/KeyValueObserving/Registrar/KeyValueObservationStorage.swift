/// The registrations of one observed object: created on its first
/// observation, closed when the object deinitialises.
///
/// This file holds the lock, its state and the atomics; its extensions hold
/// the rest, one part each: `+Registration` (adding, removing, closing),
/// `+Setter` (the setter's part) and `+Customization` (what the type
/// declares about its keys) here; `+Notification` (the change path every
/// notification takes, with a change's snapshot and the change flags) in
/// Changes/; `+ManualChange` (will/did) in ManualNotification/;
/// `+Classic` (classic observers' filing) in Classic/. The state is
/// reached only through `withState` and `mutating`, inside the lock.
///
/// Everything that changes is under one lock (see ``LockedState`` for why it
/// is not `Synchronization.Mutex`); callbacks never run under it. The lock's
/// allocation also holds the slot table (one list pointer per key) and the
/// atomics a change writes, so a first observation allocates the storage,
/// one cache line, the key's list, the registration and the token; what few
/// objects need is in ``RareState``, made on first use. A bit mask of
/// observed slots, readable without the lock, lets a write to a key nobody
/// observes skip the lock even on an object that has observers.
///
/// Not API: macro-generated setters reach it through
/// `Unmanaged._notifyingSet(_:slot:to:hasPropertyObservers:hasOverridableGetter:get:set:)`.
public final class _KeyValueObservationStorage: @unchecked Sendable {
  // @unchecked Sendable: `state` and the slot table are reached only under
  // the lock; everything else is immutable or atomic.

  /// The lock, the state and, in the same cache line as long as the class
  /// has at most two keys, the slot table and the storage's atomics but
  /// one. See ``Line`` for the layout.
  @usableFromInline let state: LockedState<State>

  /// Bit `s` is set while slot `s` has a registration; bit 63 stands for all
  /// slots from 63 on.
  @usableFromInline let observedSlots = AtomicBits64(0)

  /// What the object's class says about its keys.
  @usableFromInline let observedType: ObservedType

  /// Whether every key's setter notifies by itself (no key is notified by
  /// hand only), so that setters need not ask ``observedType``.
  @usableFromInline let notifiesEveryKey: Bool

  /// Whether the object's type is a ``KeyValueObservingCustomization``,
  /// and so may declare dependencies: asked on every tracked read.
  @usableFromInline let declaresDependencies: Bool

  /// Whether Swift Observation tracks the object's class (it declares
  /// `Observable`): every `_modify` then reports its mutation.
  @usableFromInline let tracksObservation: Bool

  /// Whether a change's end and a list's retirement meet through an
  /// ``AsymmetricFence`` (see ``mutating(_:)``), or through sequentially
  /// consistent accesses where the kernel has no heavy barrier.
  @usableFromInline let fencesAsymmetrically: Bool

  /// The dynamic type of the observed object.
  var objectType: any KeyValueObservable.Type { observedType.type }

  /// The object's type as ``KeyValueObservingCustomization``, if it is one.
  var customization: (any KeyValueObservingCustomization.Type)? { observedType.customization }

  /// Makes the storage of an object of type `objectType`; with
  /// `ownsCacheLines: false`, its lock and slot table in an ordinary
  /// allocation (see ``LockedState``), for a storage no write takes the
  /// lock of: a host's (see ``ObservationHost``).
  init(objectType: any KeyValueObservable.Type, ownsCacheLines: Bool = true) {
    let type = ObservedType.of(objectType)
    observedType = type
    notifiesEveryKey = type.manuallyNotifiedSlots.isEmpty
    declaresDependencies = type.customization != nil
    tracksObservation = type.tracksObservation
    fencesAsymmetrically = AsymmetricFence.isReady
    state = LockedState(
      State(),
      unlockedBytes: Line.unlockedBytes,
      trailingBytes: type.keyCount * MemoryLayout<SlotRegistrations>.stride,
      ownsCacheLines: ownsCacheLines
    )
    Line.initialize(state.unlocked)
    state.trailing.bindMemory(to: SlotRegistrations.self, capacity: type.keyCount)
      .initialize(repeating: SlotRegistrations(), count: observedType.keyCount)
  }

  deinit {
    _ = slotTable.deinitialize()
  }

  /// Where the storage keeps its atomics in the lock's line: after the lock
  /// word, in ``LockedState``'s unlocked area.
  @usableFromInline enum Line {
    /// The change flags (see ``changeFlags``), one byte each.
    static let changeFlags = 0
    static let changeFlagCount = 8
    /// ``closed``.
    static let closed = 8
    /// ``hasRetiredLists``: read where a change ends, inlined into setters.
    @inlinable static var hasRetiredLists: Int { 9 }
    /// ``openChanges``, a 32-bit count.
    static let openChanges = 12
    /// ``lastSlotLookup``.
    static let lastSlotLookup = 16
    static let unlockedBytes = 24

    /// Binds and initialises each atomic of the area at `area`.
    static func initialize(_ area: UnsafeMutableRawPointer) {
      for index in 0..<changeFlagCount {
        AtomicFlagPointer.initialize(at: area + changeFlags + index)
      }
      AtomicFlagPointer.initialize(at: area + closed)
      AtomicFlagPointer.initialize(at: area + hasRetiredLists)
      AtomicCount32Pointer.initialize(at: area + openChanges)
      AtomicBits64Pointer.initialize(at: area + lastSlotLookup)
    }
  }

  /// The registrations of each slot: in the lock's line, after the state.
  /// Reached only under the lock.
  @inline(__always)
  private var slotTable: UnsafeMutableBufferPointer<SlotRegistrations> {
    UnsafeMutableBufferPointer(start: state.trailing.assumingMemoryBound(to: SlotRegistrations.self), count: observedType.keyCount)
  }

  /// Set once, under the lock, when the observed object deinitialises; read
  /// without it by tokens.
  var closed: AtomicFlagPointer {
    AtomicFlagPointer(state.unlocked + Line.closed)
  }

  /// Whether `retired` holds lists; read without the lock when a change ends.
  @inlinable
  var hasRetiredLists: AtomicFlagPointer {
    AtomicFlagPointer(state.unlocked + Line.hasRetiredLists)
  }

  /// How many changes of this object are in some thread's record of
  /// changes (`Changes/ChangeNesting.swift`), on all threads: manual
  /// will-changes waiting for their did-change, and setters' changes while
  /// user code can run inside them. While it is zero, no key of this object
  /// is changing on any thread, and a change with no prior notification
  /// need not look in its thread's record. When the object deinitialises
  /// only unclosed will-changes can be left: a setter holds the object.
  var openChanges: AtomicCount32Pointer {
    AtomicCount32Pointer(state.unlocked + Line.openChanges)
  }

  /// The key path `observe` last mapped to a stored slot on this object,
  /// and that slot: the key path's address shifted left by 16 bits, or'd
  /// with the slot plus one; zero when none. Observing the same key again —
  /// the common case — then skips the key table's key-path comparison.
  private var lastSlotLookup: AtomicBits64Pointer {
    AtomicBits64Pointer(state.unlocked + Line.lastSlotLookup)
  }

  /// One flag per change under way that borrows lists without retaining
  /// them: set under the lock when the change starts, cleared by the change,
  /// without the lock, when it ends. While a flag is set, lists a change may
  /// be reading are copied rather than changed.
  ///
  /// They share the lock's cache line: a write sets and clears one as
  /// often as it takes the lock.
  private func changeFlag(_ index: Int) -> AtomicFlagPointer {
    AtomicFlagPointer(state.unlocked + Line.changeFlags + index)
  }

  /// The slot `keyPath` was last found to name on this object, when it is
  /// the key path ``rememberSlot(_:for:)`` was last given.
  @usableFromInline
  func rememberedSlot(for keyPath: AnyKeyPath) -> Int? {
    let packed = lastSlotLookup.load(ordering: .acquiring)
    let address = UInt64(UInt(bitPattern: ObjectIdentifier(keyPath)))
    guard packed != 0, packed >> 16 == address else { return nil }
    return Int(packed & 0xFFFF) - 1
  }

  /// Remembers that `keyPath` names the stored `slot`, which has no
  /// declared dependencies.
  @usableFromInline
  func rememberSlot(_ slot: Int, for keyPath: AnyKeyPath) {
    let address = UInt64(UInt(bitPattern: ObjectIdentifier(keyPath)))
    guard address >> 48 == 0, slot < 0xFFFF else { return }
    let replaced: AnyKeyPath? = withState { state, _ in
      defer {
        state.lastSlotKeyPath = keyPath
        lastSlotLookup.store(address << 16 | UInt64(slot + 1), ordering: .releasing)
      }
      return state.lastSlotKeyPath
    }
    // The key path no longer remembered is released after the lock.
    _ = replaced
  }

  /// The slot table, with the lock taken: the start of a locked section
  /// written without a closure, which ``unlockState()`` ends. For
  /// ``beginChange(ofSlot:)`` on every observed write, where the optimiser
  /// kept ``withState(_:)``'s closure out of line, which cost the write 35
  /// instructions; and for the reads and writes of keys a chain walks
  /// (``StoredChain``), which take the lock without touching the state.
  @inline(__always)
  func lockState() -> UnsafeMutableBufferPointer<SlotRegistrations> {
    state.lock()
    return slotTable
  }

  /// Ends the locked section ``lockState()`` started.
  @inline(__always)
  func unlockState() {
    state.unlock()
  }

  /// Runs `body` on the state and the slot table with the lock held.
  @inline(__always)
  func withState<Result>(
    _ body: (inout State, UnsafeMutableBufferPointer<SlotRegistrations>) throws -> Result
  ) rethrows -> Result {
    try state.withLock { try body(&$0, slotTable) }
  }

  /// Whether the observed object has deinitialised.
  var isClosed: Bool { closed.load(ordering: .acquiring) }

  /// What the lock guards besides the slot table.
  @usableFromInline struct State {
    /// The registrations, with the slot table handed in.
    var table = RegistrationTable()
    /// The key path of ``lastSlotLookup``, kept alive so that its address
    /// cannot be reused by another key path while it is remembered.
    var lastSlotKeyPath: AnyKeyPath?
  }

  /// Whether a change may be reading a list now. Called under the lock.
  var isDelivering: Bool { isDelivering(.acquiring) }

  /// ``isDelivering``, each flag read with `ordering`.
  @inline(__always)
  func isDelivering(_ ordering: AtomicLoadOrdering) -> Bool {
    for index in 0..<Line.changeFlagCount where changeFlag(index).load(ordering: ordering) {
      return true
    }
    return false
  }

  /// A free change flag, set; `nil` when every flag is taken. Called under
  /// the lock.
  @inline(__always)
  func takeDeliveryFlag() -> AtomicFlagPointer? {
    for index in 0..<Line.changeFlagCount where !changeFlag(index).load(ordering: .acquiring) {
      changeFlag(index).store(true, ordering: .relaxed)
      return changeFlag(index)
    }
    return nil
  }

  /// Sets or clears the bit of `slot` in ``observedSlots``. Called under the
  /// lock, the only place the mask changes, so a load and a store do what
  /// an atomic read-modify-write would, without its locked instruction.
  func markObserved(slot: Int, _ observed: Bool) {
    let mask = observedSlots.load(ordering: .relaxed)
    let bit = Self.bit(forSlot: slot)
    observedSlots.store(observed ? mask | bit : mask & ~bit, ordering: .releasing)
  }

  /// Whether `slot` may have registrations: a load and a test, no lock.
  @inlinable @inline(__always)
  func isObserved(slot: Int) -> Bool {
    observedSlots.load(ordering: .relaxed) & Self.bit(forSlot: slot) != 0
  }

  @inlinable @inline(__always)
  static func bit(forSlot slot: Int) -> UInt64 {
    slot < 63 ? 1 &<< UInt64(slot) : 1 &<< 63
  }

  /// Runs a change of the registration lists under the lock. `body` gets
  /// whether a change may be reading, and collects the lists it replaces;
  /// those are kept while changes are under way, and otherwise returned, to
  /// be released after the lock with whatever else `body` returned.
  ///
  /// Lists kept are released by the last change to end, or here when
  /// every change ended meanwhile: the flag that says there are some is
  /// set, then the change flags are read again, while a change clears its
  /// flag, then reads that one (``endChange(_:)``). A full barrier between
  /// each side's store and load keeps the two threads from both missing
  /// the other's store, so nothing retired is left for an unknown later
  /// change. This side, the rare one, makes it for both
  /// (``AsymmetricFence``); without one, all four accesses are
  /// sequentially consistent.
  @inline(__always)
  func mutating<Result>(
    _ body: (inout State, UnsafeMutableBufferPointer<SlotRegistrations>, _ busy: Bool, _ replaced: inout [AnyObject]) -> Result
  ) -> (result: Result, released: [AnyObject]) {
    withState { state, slots in
      let busy = isDelivering
      var replaced: [AnyObject] = []
      let result = body(&state, slots, busy, &replaced)
      if busy {
        guard !replaced.isEmpty else { return (result, []) }
        let rare = state.table.rare
        rare.retired += replaced
        hasRetiredLists.store(true, ordering: .sequentiallyConsistent)
        if fencesAsymmetrically { AsymmetricFence.heavy() }
        guard !isDelivering(.sequentiallyConsistent) else { return (result, []) }
        // Every change ended since `busy` was read, and none can start
        // while the lock is held: nothing reads the lists.
        hasRetiredLists.store(false, ordering: .relaxed)
        defer { rare.retired = [] }
        return (result, rare.retired)
      }
      if let rare = state.table.rareIfMade, !rare.retired.isEmpty {
        replaced += rare.retired
        rare.retired = []
        hasRetiredLists.store(false, ordering: .relaxed)
      }
      return (result, replaced)
    }
  }
}
