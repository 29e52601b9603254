#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One `pthread_mutex_t` that several threads take: what a user who
/// serialises writes by hand would write, the reference of the rows of two
/// threads writing one observed object.
///
/// ```swift
/// let mutex = SharedMutex()
/// mutex.withLock { model.value = index }
/// ```
public final class SharedMutex: @unchecked Sendable {
  // @unchecked Sendable: the mutex is what makes it safe.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inlinable @inline(__always)
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
