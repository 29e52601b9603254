import MallocInterposerSwift

/// Bytes allocated and not yet freed while `body` runs, as the malloc
/// interposer counts them (requested sizes, without the allocator's own
/// rounding and headers).
///
/// Keep what `body` makes alive by returning it; it is released after the
/// count is read.
public func liveBytes<Kept>(_ body: () -> Kept) -> Int {
  MallocInterposerSwift.initialize()
  MallocInterposerSwift.hook()
  let kept = body()
  let statistics = MallocInterposerSwift.getStatistics()
  MallocInterposerSwift.unhook()
  withExtendedLifetime(kept) {}
  return statistics.mallocBytesCount - statistics.freeBytesCount
}
