import Builtin

// The process-wide atomic counters: every getter asks whether any tracking
// scope is open, every bound write whether any binding reads the write
// chain; thread identities are handed out in order.
//
// Each is a plain global `Int`, which the compiler initialises statically,
// reached atomically through its address. A global of a noncopyable atomic
// type (`AtomicInt`) would be initialised lazily instead, its every read
// going through `swift_once` (the standard library's `Atomic` is the one
// such type the optimiser initialises statically). `@exclusivity(unchecked)`
// and `Builtin.unprotectedAddressOf` keep the address free of Swift's
// access checks, which are for plain reads and writes; every access here is
// an atomic operation.

/// How many tracking scopes are open on all threads together.
@exclusivity(unchecked) @usableFromInline
nonisolated(unsafe) var openTrackingScopeCount = 0

/// How many live bindings write a value that is not `Equatable`.
@exclusivity(unchecked) @usableFromInline
nonisolated(unsafe) var lookingBindingCount = 0

/// The last thread identity given (`currentThreadIdentity()`).
@exclusivity(unchecked) @usableFromInline
nonisolated(unsafe) var lastThreadIdentity = 0

/// How many tracking scopes are open on all threads together. Getters test
/// it with one relaxed load and do nothing more while it is zero.
///
/// ```swift
/// if activeTrackingScopes.load(ordering: .relaxed) != 0 { … }
/// ```
@usableFromInline
var activeTrackingScopes: AtomicIntPointer {
  @_transparent get { AtomicIntPointer(UnsafeMutableRawPointer(Builtin.unprotectedAddressOf(&openTrackingScopeCount))) }
}

/// How many live bindings write a value that is not `Equatable`: the
/// bindings that look at ``BindingWriteChain``. While there are none,
/// nobody reads the chain and a binding's write does not record itself.
///
/// ```swift
/// if lookingBindings.load(ordering: .relaxed) != 0 { … }
/// ```
@usableFromInline
var lookingBindings: AtomicIntPointer {
  @_transparent get { AtomicIntPointer(UnsafeMutableRawPointer(Builtin.unprotectedAddressOf(&lookingBindingCount))) }
}

/// The thread identities given so far.
var threadIdentities: AtomicIntPointer {
  @_transparent get { AtomicIntPointer(UnsafeMutableRawPointer(Builtin.unprotectedAddressOf(&lastThreadIdentity))) }
}
