#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif os(Windows)
  import WinSDK
#endif

/// One pointer-sized slot per thread (and, below, the current thread's
/// identity: the two per-thread primitives the runtime needs from the
/// platform).
///
/// C11 thread-local storage from the `KeyValueObservingShims` target
/// (through `RuntimeEntryPoints.swift`), a call of four instructions per
/// access, because the runtime imports no Foundation and the standard
/// library exposes no thread-local API; on Windows, fiber-local storage. No slot holds a reference that a thread's end must release.
struct ThreadLocal: Sendable {
  #if os(Windows)
    private let key: DWORD

    init(_ slot: ThreadSlot) {
      key = FlsAlloc(nil)
    }

    var value: UnsafeMutableRawPointer? {
      get { FlsGetValue(key) }
      nonmutating set { FlsSetValue(key, newValue) }
    }
  #else
    private let slot: Int

    init(_ slot: ThreadSlot) {
      self.slot = Int(slot.rawValue)
    }

    var value: UnsafeMutableRawPointer? {
      @inline(__always) get { kvoThreadSlot(slot) }
      @inline(__always) nonmutating set { kvoSetThreadSlot(slot, newValue) }
    }
  #endif
}

/// The current thread's identity: the same for every call on one thread,
/// and never given to another thread, even after this one ends (where a
/// thread's own address or handle may be reused); never 0.
@usableFromInline
func currentThreadIdentity() -> UInt {
  if let identity = threadIdentity.value { return UInt(bitPattern: identity) }
  let made = UInt(bitPattern: threadIdentities.add(1, ordering: .relaxed).newValue)
  threadIdentity.value = UnsafeMutableRawPointer(bitPattern: made)
  return made
}

private let threadIdentity = ThreadLocal(.threadIdentity)

/// Lets other threads run: what a thread waiting for another does between
/// checks.
func yieldThread() {
  SchedulePoint.reach(.waiting)
  #if os(Windows)
    _ = SwitchToThread()
  #elseif !os(WASI)
    sched_yield()
  #endif
}
