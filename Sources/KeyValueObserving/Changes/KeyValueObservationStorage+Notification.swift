// The change path: a setter's assignment, made within one call, and the
// one loop every change's notifications go through — manual ones and a
// collection proxy's mutation (KeyValueObservationStorage+CollectionChange.swift)
// included. The start and end of a
// change are in KeyValueObservationStorage+ChangeBounds.swift.
//
// A handler that changes the key it observes recurses through this path,
// so in an unoptimised build, where each frame keeps a slot for every value
// its function makes, it is laid out for the stack: a setter's change runs
// under one frame of the library's, `notifyingSetObserved`, into which the
// loop and the delivery are inlined (`@_transparent` under `DEBUG`), and
// which calls out (`makeChange`) for the work done before the
// notifications, whose slots are then freed before any handler runs.
// The loop takes no closure. `@_transparent` inlines only within a file in
// such a build, which compiles each file apart: the path stays in this one.
// A level of a callback writing its own key took 5.4 KB of stack, then
// 3.3 KB; it takes 1.5 KB, the callback's frame and the setter's included
// (ReentrancyTests).
// Optimised, the functions keep the attributes they were measured with:
// forced inlining before the optimiser runs made changes through key-value
// coding 3× slower.

extension _KeyValueObservationStorage {
  /// Assigns a stored property whose key has registrations, and notifies
  /// them: the part of a setter kept out of line, so that the setter's own
  /// code stays a load, a test and a store.
  ///
  /// The old value is read only when a registration asked for `.old`, the
  /// new value only when one asked for `.new`. The new value is read back
  /// after the assignment (`readsBack`) when the property has its own
  /// observers, so that a `didSet` that adjusts it is seen, when `get`
  /// may be a subclass's override, and when the value holds references
  /// (a `weak` property may read `nil`, and the old value's release may
  /// run a deinit that writes the key); otherwise the storage holds what
  /// was assigned. Registrations removed during
  /// notification are skipped; ones added during it wait for the next change.
  /// A write made in the object's own `deinit` notifies nobody: handlers
  /// would be handed an object that is being freed.
  ///
  /// Compiled once per value type in each module that has setters, not
  /// once per property: the object's class is erased, and the accessors
  /// come as functions of any object.
  @inlinable @inline(never)
  func notifyingSetObserved<Value>(
    erased object: AnyObject,
    slot: Int,
    to newValue: Value,
    hasPropertyObservers: Bool,
    readsBack: Bool,
    get: (AnyObject) -> Value,
    set: (AnyObject, Value) -> Void
  ) {
    guard notifiesAutomatically(slot: slot) else {
      set(object, newValue)
      return
    }
    #if DEBUG
      // Always read back, which is always right: an unoptimised frame,
      // under which a handler writing its own key recurses, would keep the
      // closure that decides.
      notifyingChange(
        object,
        slot: slot,
        shape: ChangeShape(kind: .setting, indexRanges: nil),
        mayNest: hasPropertyObservers,
        oldValue: get,
        change: { set($0, newValue) },
        newValue: get
      )
    #else
      notifyingChange(
        object,
        slot: slot,
        shape: ChangeShape(kind: .setting, indexRanges: nil),
        mayNest: hasPropertyObservers,
        oldValue: get,
        change: { set($0, newValue) },
        newValue: { readsBack ? get($0) : newValue }
      )
    #endif
  }

  /// Makes a change of `slot` of `object` that happens within this call
  /// (`change`), and notifies the key's registrations of it as `shape`
  /// says: the assignment of a setter. (A collection proxy's insertion,
  /// removal or replacement takes
  /// ``notifyingCollectionChange(_:slot:shape:mayNest:value:elements:change:)``,
  /// which also watches for a change folding into it.)
  ///
  /// `oldValue` and `newValue` read what the notifications carry (the
  /// whole value, or the elements the change touches) and are called only
  /// when a registration asked for them and the shape has them. User code
  /// can run inside the change only in prior callbacks and in the
  /// property's own observers (`mayNest`); only then is the change recorded
  /// in the thread's nesting, so that the same key changed inside it folds
  /// into it. A change made while some change of the object is recorded
  /// (``objectHasOpenChanges``) looks there too, and only changes when its
  /// key is changing on this thread: whether it folds depends on nothing
  /// but the changes open on its own thread.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func notifyingChange<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    shape: ChangeShape,
    mayNest: Bool,
    oldValue: (Object) -> Value,
    change: (Object) -> Void,
    newValue: (Object) -> Value
  ) {
    var old: Value? = nil
    var new: Value? = nil
    guard
      let snapshot = makeChange(
        object,
        slot: slot,
        shape: shape,
        mayNest: mayNest,
        oldValue: oldValue,
        change: change,
        newValue: newValue,
        old: &old,
        new: &new
      )
    else { return }
    notify(snapshot, shape: shape, isPrior: false, oldValue: old, newValue: new, from: object)
    endChange(snapshot)
  }

  /// The change of ``notifyingChange(_:slot:shape:mayNest:oldValue:change:newValue:)``
  /// before its notifications: makes it, reads into `old` and `new` the
  /// values the registrations asked for, and gives the registrations to
  /// notify, or `nil` when there is nothing to notify (nobody observes the
  /// key, the object is deinitialising, or the change folded into one of
  /// the same key under way on this thread). A snapshot it gives must be
  /// ended with ``endChange(_:)``.
  ///
  /// Out of line in a debug build: unoptimised, every value a function
  /// makes keeps its own slot in the function's frame, and the frame that
  /// notifies, under which a handler that changes the key again recurses,
  /// then holds only the loop's. (The values come back through `inout`,
  /// not in a returned struct: the optimiser copies such a struct through
  /// its type's metadata for every registration notified.)
  #if DEBUG
    @inlinable @inline(never)
  #else
    @inlinable @inline(__always)
  #endif
  func makeChange<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    shape: ChangeShape,
    mayNest: Bool,
    oldValue: (Object) -> Value,
    change: (Object) -> Void,
    newValue: (Object) -> Value,
    old: inout Value?,
    new: inout Value?
  ) -> ChangeSnapshot? {
    guard !isDeinitializing(object), let snapshot = beginChange(ofSlot: slot) else {
      change(object)
      return nil
    }
    old = snapshot.oldValue(of: shape) { oldValue(object) }
    // A link a chain walks: each store, a prior callback's or a `didSet`'s
    // folding into this one included, holds the object it replaces until
    // the walks that may have read it are done, and lets go before the
    // new value is read (KeyValueObservationStorage+LinkReaders.swift).
    let holdsReplacedLinks = snapshot.isWalkedByChain && !_isPOD(Value.self) && ObjectLink(Value.self) != nil
    if snapshot.hasPrior || mayNest || snapshot.objectHasOpenChanges {
      guard
        changeInNesting(
          object, slot: slot, snapshot, shape: shape, oldValue: old,
          holdsReplacedLink: holdsReplacedLinks, readingReplaced: oldValue, change: change
        )
      else {
        endChange(snapshot)
        return nil
      }
    } else {
      store(object, holdsReplacedLink: holdsReplacedLinks, readingReplaced: oldValue, change: change)
    }
    new = snapshot.newValue(of: shape) { newValue(object) }
    return snapshot
  }

  /// Makes the change of ``notifyingChange(_:slot:shape:mayNest:oldValue:change:newValue:)``
  /// where user code can run inside it: recorded in the thread's nesting,
  /// after the prior notifications. Returns `false` when the same key of
  /// this object is already changing on this thread: the change is made,
  /// and the outer change reports the final value (a to-many one as a
  /// setting: see ``FoldWatch``).
  ///
  /// Out of line in a debug build, so that the frame the common path
  /// notifies from stays small there.
  #if DEBUG
    @inlinable @inline(never)
  #else
    @inlinable @inline(__always)
  #endif
  func changeInNesting<Object: AnyObject, Value>(
    _ object: Object,
    slot: Int,
    _ snapshot: ChangeSnapshot,
    shape: ChangeShape,
    oldValue: Value?,
    holdsReplacedLink: Bool,
    readingReplaced replaced: (Object) -> Value,
    change: (Object) -> Void
  ) -> Bool {
    countOpenChange(1)
    defer { countOpenChange(-1) }
    let changed: Void? = _KeyValueChangeNesting.withChange(
      of: self, slot: slot, holdsReplacedLinks: holdsReplacedLink
    ) {
      if snapshot.hasPrior {
        notify(snapshot, shape: shape, isPrior: true, oldValue: oldValue, newValue: nil, from: object)
      }
      store(object, holdsReplacedLink: holdsReplacedLink, readingReplaced: replaced, change: change)
    }
    guard changed != nil else {
      store(object, holdsReplacedLink: holdsReplacedLink, readingReplaced: replaced, change: change)
      return false
    }
    return true
  }

  /// Sends the notifications of one change, shaped `shape`, to the live
  /// registrations of `snapshot`: its prior ones (`isPrior`, to those that
  /// asked for `.prior`), or the ones after it. Each gets the values it
  /// asked for. Every change's notifications go through this loop.
  ///
  /// The loop calls handlers from this frame, through no closure of its
  /// own: unoptimised, each closure would be one more frame under every
  /// handler, and `_withUnsafeGuaranteedRef`, which borrows a registration
  /// without retaining it, takes one. There the registration is retained
  /// for the call instead.
  ///
  /// While a tracking scope is open on this thread (a tracked closure
  /// running, whose write may be this change), the loop runs out of line,
  /// in ``notifyHidingTracking(_:shape:isPrior:oldValue:newValue:from:)``:
  /// the handlers serve their own registrations, and what they read is
  /// theirs, not the running closure's. Only one relaxed load and a test
  /// are added here: a hidden scope kept across the loop cost every
  /// observed write thirteen instructions. The thread's own scope is asked
  /// for only while one is open somewhere; another thread's scope then
  /// changes neither the path nor, unoptimised, the stack a level takes.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable
  #endif
  func notify<Value>(
    _ snapshot: ChangeSnapshot,
    shape: ChangeShape,
    isPrior: Bool,
    oldValue: Value?,
    newValue: Value?,
    from object: AnyObject
  ) {
    if activeTrackingScopes.load(ordering: .relaxed) != 0, _KeyValueAccessTracking.hasScopeOnThisThread {
      return notifyHidingTracking(
        snapshot, shape: shape, isPrior: isPrior, oldValue: oldValue, newValue: newValue, from: object
      )
    }
    deliverAll(snapshot, shape: shape, isPrior: isPrior, oldValue: oldValue, newValue: newValue, from: object)
  }

  /// The loop of ``notify(_:shape:isPrior:oldValue:newValue:from:)``.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func deliverAll<Value>(
    _ snapshot: ChangeSnapshot,
    shape: ChangeShape,
    isPrior: Bool,
    oldValue: Value?,
    newValue: Value?,
    from object: AnyObject
  ) {
    // A `while`, not a `for` over a range, and no `defer`: unoptimised, a
    // range's iterator takes three more slots in the frame, and a `defer`
    // is a call.
    var index = 0
    #if !DEBUG
      // Made once for every registration that asked for all its values:
      // made for each, it was built and copied field by field each time
      // (about 30 instructions). A debug build makes it in `deliver`:
      // made here, it grew the frame a recursing handler pays each level.
      let change = KeyValueObservedChange(
        kind: shape.kind, newValue: newValue, oldValue: oldValue, positions: shape.indexRanges, isPrior: isPrior
      )
    #endif
    while index < snapshot.count {
      let live = snapshot.liveRegistration(at: index, closingChanges: !isPrior)
      index += 1
      guard let entry = live else { continue }
      #if DEBUG
        let registration = entry.takeUnretainedValue()
        deliver(
          shape, isPrior: isPrior, oldValue: oldValue, newValue: newValue, wanted: snapshot.wants,
          slot: snapshot.changedSlot, to: registration, from: object
        )
      #else
        entry._withUnsafeGuaranteedRef { registration in
          deliver(change, wanted: snapshot.wants, slot: snapshot.changedSlot, to: registration, from: object)
        }
      #endif
    }
  }

  /// Hands one registration the notification of a change shaped `shape`,
  /// with the values it asked for; a prior one only if it asked for it.
  /// `wanted` holds the options bits some registration of the change asked
  /// for (``ChangeSnapshot/wants``): the values were read for those, and a
  /// registration that asked for every one of them takes them as they are.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func deliver<Value>(
    _ shape: ChangeShape,
    isPrior: Bool,
    oldValue: Value?,
    newValue: Value?,
    wanted: UInt8,
    slot: Int16,
    to registration: _KeyValueRegistration,
    from object: AnyObject
  ) {
    let options = registration.options
    guard !isPrior || options.contains(.prior) else { return }
    // The values' bits (`.new`, `.old`) some registration wanted and this
    // one did not: none, as when every registration asks alike, and the
    // change needs no trimming.
    guard wanted & ~registration.bits & 0b0011 != 0 else {
      return send(
        KeyValueObservedChange(kind: shape.kind, newValue: newValue, oldValue: oldValue, positions: shape.indexRanges, isPrior: isPrior),
        to: registration,
        from: object,
        slot: slot
      )
    }
    send(
      KeyValueObservedChange(
        kind: shape.kind,
        newValue: newValue,
        oldValue: oldValue,
        positions: shape.indexRanges,
        isPrior: isPrior,
        trimmedTo: options
      ),
      to: registration,
      from: object,
      slot: slot
    )
  }

  /// Hands `change` to one registration of a key whose values are `Value`.
  ///
  /// A closure registration's handler is called directly, here; the other
  /// kinds through ``sendToReceiver(_:_:from:)``, out of line in a debug
  /// build, so that the frame a handler runs under stays small there, where
  /// a callback that changes the key again recurses through it.
  #if DEBUG
    @_transparent @usableFromInline
  #else
    @inlinable @inline(__always)
  #endif
  func send<Value>(
    _ change: KeyValueObservedChange<Value>,
    to registration: _KeyValueRegistration,
    from object: AnyObject,
    slot: Int16
  ) {
    if registration.callsHandler {
      unsafeDowncast(registration, to: _KeyValueHandlerRegistration<Value>.self).handler(object, change)
    } else {
      sendToReceiver(change, registration, from: object, slot: slot)
    }
  }
}
