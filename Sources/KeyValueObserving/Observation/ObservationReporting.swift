public import Observation

/// What a `@KeyValueObservable` class that declares `Observable` reports to
/// Swift Observation about one of its observable stored properties, so that
/// `withObservationTracking`, `Observations` and SwiftUI track it.
///
/// The macro gives such a class an `ObservationRegistrar` and its own
/// ``KeyValueObservable/_$kvoObservationEvent(_:slot:)``, which hands each
/// event to the registrar with the property's key path; a mutation as a
/// whole (``KeyValueObservable/_$kvoObservedMutation(ofSlot:_:)``) is its
/// two events. The accessors it
/// writes are the same as for any other class: their calls have overloads
/// for classes that are `Observable` (the getter's `access`, the setter's
/// `notifyingSet`) that also report, chosen by the compiler, so a class that
/// does not declare `Observable` pays nothing. Every other change of a
/// property — `setValue(_:forKey:)`, a collection proxy's mutation, a
/// manual will/did pair — reports through the same member.
///
/// Not API.
public enum _KeyValueObservationEvent: Sendable {
  /// The property was read.
  case access
  /// The property is about to change.
  case willSet
  /// The property changed.
  case didSet
}

extension KeyValueObservable {
  /// Reports `event` of the property at `slot` to Swift Observation: nothing,
  /// unless the class declares `Observable` (the macro then writes the
  /// class's own).
  ///
  /// Not API.
  @inlinable @inline(__always)
  public func _$kvoObservationEvent(_ event: _KeyValueObservationEvent, slot: Int) {}

  /// Runs `mutation` as one mutation of the property at `slot`, as Swift
  /// Observation sees it: just runs it, unless the class is `Observable`
  /// (see the overload below, which announces it before and after).
  ///
  /// Not API.
  @inlinable @inline(__always)
  public func _$kvoObservedMutation<Result>(ofSlot slot: Int, _ mutation: () -> Result) -> Result {
    mutation()
  }
}

extension KeyValueObservable where Self: Observable {
  /// Runs `mutation` as one mutation of the property at `slot`, as Swift
  /// Observation sees it, for a class it tracks: announced before and
  /// after, as `ObservationRegistrar.withMutation(of:keyPath:_:)` does,
  /// through the class's ``_$kvoObservationEvent(_:slot:)``.
  ///
  /// Not API.
  @inlinable @inline(__always)
  public func _$kvoObservedMutation<Result>(ofSlot slot: Int, _ mutation: () -> Result) -> Result {
    _$kvoMutationAsEvents(ofSlot: slot, mutation)
  }

  /// `mutation` between the will and the did of the property at `slot`:
  /// what a mutation is to Observation unless the class routes it through
  /// its own `withMutation(keyPath:_:)`, as one that declares it does for
  /// the slots it can name.
  ///
  /// Not API.
  @inlinable @inline(__always)
  public func _$kvoMutationAsEvents<Result>(ofSlot slot: Int, _ mutation: () -> Result) -> Result {
    // No `defer`: the mutation cannot throw, and a deferred block is one
    // more function per setter to compile.
    _$kvoObservationEvent(.willSet, slot: slot)
    let result = mutation()
    _$kvoObservationEvent(.didSet, slot: slot)
    return result
  }
}

extension KeyValueObservable {
  /// The key path Swift Observation hears about for the observable stored
  /// property at `slot`: the property's own (`\Sheet.title`), as
  /// `@Observable` reports it, from the class's key table, which forms it
  /// where no `nonisolated` constant may (the property of an isolated
  /// class); `storage`, the key path to the property's storage, gives its
  /// type, and stands in if the table has none.
  ///
  /// Not API: ``_$kvoObservedKeyPaths(_:)`` calls it for each property.
  ///
  /// ```swift
  /// let title = Sheet._$kvoObservedKeyPath(slot: 0, storage: \Sheet._title)  // \Sheet.title
  /// ```
  public static func _$kvoObservedKeyPath<Value>(slot: Int, storage: KeyPath<Self, Value>) -> KeyPath<Self, Value> {
    _$kvoKeyPath(forSlot: slot) as? KeyPath<Self, Value> ?? storage
  }

  /// ``_$kvoObservedKeyPath(slot:storage:)`` for each of a class's
  /// properties, given with its slot: one call initialises the class's
  /// whole constant, not one per property. For one property it gives the
  /// key path itself (a one-element pack is not a tuple).
  ///
  /// Not API.
  public static func _$kvoObservedKeyPaths<each Value>(
    _ properties: repeat (Int, KeyPath<Self, each Value>)
  ) -> (repeat KeyPath<Self, each Value>) {
    (repeat _$kvoObservedKeyPath(slot: (each properties).0, storage: (each properties).1))
  }
}

extension ObservationRegistrar {
  /// Hands `event` of the property `keyPath` names on `subject` to this
  /// registrar.
  ///
  /// Not API: the member the macro writes calls it.
  @inlinable
  public func _$kvoReport<Subject: Observable, Member>(
    _ event: _KeyValueObservationEvent,
    _ subject: Subject,
    _ keyPath: KeyPath<Subject, Member>
  ) {
    switch event {
    case .access: access(subject, keyPath: keyPath)
    case .willSet: willSet(subject, keyPath: keyPath)
    case .didSet: didSet(subject, keyPath: keyPath)
    }
  }

  /// Hands `event` of the property `keyPath` names on `subject` to this
  /// registrar, for a key path known only as a value: one to a property a
  /// subclass declares, from its class's table, or one a class isolated to
  /// a global actor names as a pattern. Its types are found at run time.
  ///
  /// Not API.
  public func _$kvoReport(_ event: _KeyValueObservationEvent, _ subject: AnyObject, _ keyPath: AnyKeyPath?) {
    guard let keyPath else { return }
    let keyPathType = type(of: keyPath)
    guard let root = keyPathType.rootType as? any Observable.Type else { return }
    func report<Root: Observable>(as _: Root.Type) {
      func report<Member>(_: Member.Type) {
        guard let subject = subject as? Root, let typed = keyPath as? KeyPath<Root, Member> else { return }
        _$kvoReport(event, subject, typed)
      }
      report(keyPathType.valueType)
    }
    report(as: root)
  }
}

/// A key path whose value type is known only at run time, opened: what lets
/// the member the macro writes for a class with its own
/// `access(keyPath:)` or `withMutation(keyPath:_:)` call them with the key
/// path its key table holds, typed.
///
/// Not API.
public protocol _KeyValueTypedKeyPath<Root> {
  associatedtype Root
  associatedtype Value
  /// The key path, with both its types.
  var _$kvoTyped: KeyPath<Root, Value> { get }
}

extension KeyPath: _KeyValueTypedKeyPath {
  /// The key path itself.
  ///
  /// ```swift
  /// let typed: KeyPath<Sheet, String> = (\Sheet.title)._$kvoTyped
  /// ```
  public var _$kvoTyped: KeyPath<Root, Value> { self }
}
