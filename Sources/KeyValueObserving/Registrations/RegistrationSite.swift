/// Where a registration was made — the file and line of the `observe`,
/// `addObserver`, controller or `publisher(for:)` call — for
/// ``KeyValueObservationGraph`` to show on its edge.
///
/// Kept only in a debug build of the library: in a release build it has no
/// stored properties, takes no memory in a registration, and the calls'
/// `fileID:` and `line:` arguments are dropped.
///
/// Not API; `package` so that the Combine module's publishers keep theirs.
@usableFromInline
package struct RegistrationSite: Sendable {
  #if DEBUG
    @usableFromInline let fileID: StaticString
    @usableFromInline let line: UInt
  #endif

  /// The site of a call made at `line` of `fileID`.
  @inlinable
  package init(fileID: StaticString, line: UInt) {
    #if DEBUG
      self.fileID = fileID
      self.line = line
    #endif
  }

  /// `Module/File.swift:12`, in a debug build of the library; `nil` in a
  /// release build, or when the site is not known.
  var description: String? {
    #if DEBUG
      guard line > 0 else { return nil }
      return "\(fileID):\(line)"
    #else
      return nil
    #endif
  }
}
