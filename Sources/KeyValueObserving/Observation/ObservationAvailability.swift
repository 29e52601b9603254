import Observation

/// Whether Swift Observation tracks `type`: whether it is `Observable`.
///
/// `Observable` exists from macOS 14, iOS 17, tvOS 17 and watchOS 10, as
/// `@Observable` does; before them no type is, and nothing of Observation
/// is touched. Everything else in the runtime that names an Observation
/// type requires those versions, as `@Observable` classes do.
///
/// ```swift
/// let tracked = isTrackedByObservation(Sheet.self)
/// ```
@usableFromInline
func isTrackedByObservation(_ type: Any.Type) -> Bool {
  guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return false }
  return type is any Observable.Type
}
