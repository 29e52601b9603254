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

/// A one-shot event: ``wait()`` blocks the thread, without spinning, until
/// ``open()`` has been called once; after that it returns at once.
///
/// Built on the platform's mutex and condition variable (Synchronization
/// has no way to block a thread until another says so), allocated once so
/// that their addresses never move.
final class Latch: @unchecked Sendable {
  // @unchecked Sendable: `isOpen` is only touched with `mutex` held; the
  // primitives are thread-safe.

  #if os(Windows)
    private let lock = UnsafeMutablePointer<SRWLOCK>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<CONDITION_VARIABLE>.allocate(capacity: 1)
  #else
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  #endif
  private var isOpen = false

  init() {
    #if os(Windows)
      InitializeSRWLock(lock)
      InitializeConditionVariable(condition)
    #else
      precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
      precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    #endif
  }

  deinit {
    #if os(Windows)
      lock.deallocate()
      condition.deallocate()
    #else
      pthread_cond_destroy(condition)
      pthread_mutex_destroy(mutex)
      condition.deallocate()
      mutex.deallocate()
    #endif
  }

  /// Opens the latch and wakes every thread waiting on it.
  func open() {
    #if os(Windows)
      AcquireSRWLockExclusive(lock)
      isOpen = true
      ReleaseSRWLockExclusive(lock)
      WakeAllConditionVariable(condition)
    #else
      pthread_mutex_lock(mutex)
      isOpen = true
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
    #endif
  }

  /// Blocks until the latch is open.
  func wait() {
    #if DEBUG && !os(Windows)
      // A schedule explorer's thread must not block where the explorer
      // cannot see: it waits at schedule points instead, rechecking.
      if SchedulePoint.isExploring {
        while true {
          pthread_mutex_lock(mutex)
          let open = isOpen
          pthread_mutex_unlock(mutex)
          if open { return }
          SchedulePoint.reach(.waiting)
        }
      }
    #endif
    #if os(Windows)
      AcquireSRWLockExclusive(lock)
      while !isOpen { _ = SleepConditionVariableSRW(condition, lock, INFINITE, 0) }
      ReleaseSRWLockExclusive(lock)
    #else
      pthread_mutex_lock(mutex)
      while !isOpen { pthread_cond_wait(condition, mutex) }
      pthread_mutex_unlock(mutex)
    #endif
  }
}
