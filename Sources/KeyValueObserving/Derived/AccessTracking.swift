public import Observation

/// The current thread's innermost tracking scope: a pointer to the
/// ``TrackingScope`` it records into, which lives on the stack of
/// `withAccessTracking(in:_:)`.
private let currentScope = ThreadLocal(.trackingScope)

/// One read of an observable property: which object's storage, which key.
///
/// The storage, not the object, is kept: holding the objects a getter read
/// would add reference-count traffic on the observed objects themselves.
struct TrackedAccess {
  /// The storage of the object read, made by the read if the object had
  /// none.
  let storage: _KeyValueObservationStorage
  let slot: Int
  /// The object read, kept only when its class declares dependencies,
  /// which are then read on it.
  let declaringObject: (any KeyValueObservable)?
  /// The object read, kept only by a scope that keeps them all (see
  /// ``TrackingScope/keepsObjects``).
  var readObject: AnyObject? = nil
}

/// What one tracking scope learns from the reads made in it.
///
/// A recording scope keeps every read. A verifying scope is given the
/// dependencies the same value had before and compares each read with them
/// in order, keeping nothing while they match: reading a derived key again
/// after a change that left its dependencies as they were (the common case)
/// then costs a comparison per read, with no allocation and no reference
/// taken. At the first read that does not match, it starts keeping reads,
/// those matched so far first, and the caller resolves them anew.
struct TrackingScope {
  /// The reads kept, once recording.
  private(set) var accesses: [TrackedAccess] = []
  /// Whether each read keeps the object read, for an observation that
  /// hears freed objects: the objects its keys hold are looked at after
  /// the read (see ``DerivedObservationBase/watchHeldObjects(of:into:)``).
  var keepsObjects = false
  /// What a verifying scope expects, in order; empty for a recording one.
  private let expected: RegisteredDependencies
  /// How many of `expected` the reads matched so far.
  private var matched = 0
  /// The objects of the reads matched so far, in order, when the scope
  /// keeps objects: a read that stops early (a branch no longer taken)
  /// resolves them anew, and the objects its keys hold are watched too.
  private var matchedObjects: [AnyObject] = []
  /// Whether the scope keeps reads (from the start, or since a mismatch).
  private(set) var isRecording: Bool

  /// How far back a verifying scope looks for a key read again (`a * a`)
  /// before it gives up and records.
  private static let repeatedReadWindow = 8

  /// A scope that keeps every read, with room for `capacity` of them.
  init(capacity: Int = 0) {
    expected = []
    isRecording = true
    accesses.reserveCapacity(capacity)
  }

  /// A scope that checks the reads against `expected`: the dependencies,
  /// found without declared ones, of the same value before.
  init(verifying expected: RegisteredDependencies) {
    self.expected = expected
    isRecording = false
  }

  /// Whether the reads were exactly the expected dependencies (repeats
  /// aside): nothing to resolve or register.
  var matchedExpected: Bool {
    !isRecording && matched == expected.count
  }

  /// Every read, matched ones included.
  var reads: [TrackedAccess] {
    isRecording ? accesses : matchedReads
  }

  /// The reads matched so far, each with its object when the scope keeps
  /// objects.
  private var matchedReads: [TrackedAccess] {
    expected[..<matched].enumerated().map { index, dependency in
      var access = TrackedAccess(dependency)
      if index < matchedObjects.count { access.readObject = matchedObjects[index] }
      return access
    }
  }

  mutating func record(_ object: any KeyValueObservable, slot: Int) {
    if !isRecording {
      let before = matched
      if let storage = object._$kvoObservedStorage, storage._withUnsafeGuaranteedRef({ verify($0, slot: slot) }) {
        if keepsObjects, matched > before { matchedObjects.append(object) }
        return
      }
      startRecording()
    }
    let storage = object._$kvoStorage()
    let declaringObject = storage.declaresDependencies ? object : nil
    accesses.append(
      TrackedAccess(storage: storage, slot: slot, declaringObject: declaringObject, readObject: keepsObjects ? object : nil)
    )
  }

  /// Whether a read of `slot` of `storage` is the next expected one, or one
  /// matched shortly before.
  private mutating func verify(_ storage: _KeyValueObservationStorage, slot: Int) -> Bool {
    guard !storage.declaresDependencies else { return false }
    if matched < expected.count, expected[matched].storage === storage, expected[matched].slot == slot {
      matched += 1
      return true
    }
    let recent = max(0, matched - Self.repeatedReadWindow)..<matched
    return expected[recent].contains { $0.storage === storage && $0.slot == slot }
  }

  private mutating func startRecording() {
    isRecording = true
    accesses = matchedReads
    matchedObjects = []
  }
}

extension TrackedAccess {
  /// A read of a dependency found without declared ones.
  init(_ dependency: DependencyRegistration) {
    self.init(storage: dependency.storage, slot: dependency.slot, declaringObject: nil)
  }
}

/// Records reads of observable properties made on the current thread.
///
/// Macro-generated getters call ``access(_:slot:)``; `withAccessTracking(_:)`
/// collects the reads a piece of code makes on its thread, which is how the
/// observation of computed properties and key-path chains learns which
/// objects and keys they depend on.
///
/// Not API.
public enum _KeyValueAccessTracking {
  /// Reports a read of `slot` on `object` to the current thread's tracking
  /// scope, if any. One relaxed load when no scope is open anywhere.
  ///
  /// The slot is a plain value, not an autoclosure: in an optimised build
  /// it is a constant either way (a subclass's first slot is a chain of
  /// static calls the optimiser folds), and a closure would be one more
  /// function per property to compile.
  ///
  /// ```swift
  /// _KeyValueAccessTracking.access(self, slot: 0)
  /// ```
  @inlinable @inline(__always)
  public static func access(_ object: some KeyValueObservable, slot: Int) {
    if activeTrackingScopes.load(ordering: .relaxed) != 0 {
      record(object, slot: slot)
    }
  }

  /// ``access(_:slot:)`` on a class that is `Observable` through a
  /// protocol that refines it: the read is also reported to Swift
  /// Observation. The compiler picks this overload for such a class, from
  /// the same getter text (the macro cannot see the conformance).
  ///
  /// ```swift
  /// _KeyValueAccessTracking.access(sheet, slot: 0)
  /// ```
  @inlinable @inline(__always)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public static func access(_ object: some KeyValueObservable & Observable, slot: Int) {
    trackedAccess(object, slot: slot)
  }

  /// ``access(_:slot:)`` on a class that declares `Observable`, whose
  /// getters the macro writes with this call: the read is also reported
  /// to Swift Observation. A name of its own, not an overload, so that the
  /// type checker has one function to consider for each getter.
  ///
  /// ```swift
  /// _KeyValueAccessTracking.trackedAccess(sheet, slot: 0)
  /// ```
  @inlinable @inline(__always)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public static func trackedAccess(_ object: some KeyValueObservable & Observable, slot: Int) {
    if activeTrackingScopes.load(ordering: .relaxed) != 0 {
      record(object, slot: slot)
    }
    object._$kvoObservationEvent(.access, slot: slot)
  }

  @usableFromInline
  static func record(_ object: any KeyValueObservable, slot: Int) {
    guard let current = currentScope.value else { return }
    current.assumingMemoryBound(to: TrackingScope.self).pointee.record(object, slot: slot)
  }

  /// Hides this thread's tracking scope, if one is open, until
  /// ``resumeTracking(_:)``: what runs meanwhile serves another
  /// registration (its first read, an `.initial` value, a handler told of
  /// a change), and its reads belong to that
  /// registration, not to the scope of whoever made the call. One relaxed
  /// load when no scope is open anywhere.
  ///
  /// ```swift
  /// let hidden = _KeyValueAccessTracking.suspendTracking()
  /// defer { _KeyValueAccessTracking.resumeTracking(hidden) }
  /// ```
  @inlinable @inline(__always)
  static func suspendTracking() -> SuspendedTracking {
    guard activeTrackingScopes.load(ordering: .relaxed) != 0 else { return SuspendedTracking(scope: nil) }
    return hideScope()
  }

  /// Opens again the scope ``suspendTracking()`` hid.
  @inlinable @inline(__always)
  static func resumeTracking(_ suspended: SuspendedTracking) {
    if let scope = suspended.scope { restoreScope(scope) }
  }

  /// Whether a tracking scope is open on this thread. Asked only while one
  /// is open somewhere (one relaxed load first tells).
  @usableFromInline
  static var hasScopeOnThisThread: Bool { currentScope.value != nil }

  @usableFromInline
  static func hideScope() -> SuspendedTracking {
    let scope = currentScope.value
    currentScope.value = nil
    return SuspendedTracking(scope: scope)
  }

  @usableFromInline
  static func restoreScope(_ scope: UnsafeMutableRawPointer) {
    currentScope.value = scope
  }
}

/// A tracking scope hidden while a registration is served (see
/// ``_KeyValueAccessTracking/suspendTracking()``).
@usableFromInline
struct SuspendedTracking {
  @usableFromInline let scope: UnsafeMutableRawPointer?

  @inlinable
  init(scope: UnsafeMutableRawPointer?) {
    self.scope = scope
  }
}

/// Runs `body` and returns what it returned, with every observable property
/// read it made on this thread told to `scope`, and to no other. A scope
/// opened inside another belongs to another registration (a computed key
/// read for its own observation, a binding made inside a tracked closure):
/// its reads are its own, and the outer scope does not see them.
func withAccessTracking<Result>(
  in scope: inout TrackingScope,
  _ body: () throws -> Result
) rethrows -> Result {
  let outer = currentScope.value
  activeTrackingScopes.add(1, ordering: .relaxed)
  defer {
    activeTrackingScopes.subtract(1, ordering: .relaxed)
    currentScope.value = outer
  }
  return try withUnsafeMutablePointer(to: &scope) { scope in
    currentScope.value = UnsafeMutableRawPointer(scope)
    return try body()
  }
}

/// Runs `body` and returns what it returned with every observable property
/// read it made on this thread.
func withAccessTracking<Result>(
  _ body: () throws -> Result
) rethrows -> (result: Result, accesses: [TrackedAccess]) {
  var scope = TrackingScope()
  let result = try withAccessTracking(in: &scope, body)
  return (result, scope.accesses)
}
