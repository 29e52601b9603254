public import Observation

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

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObservationRegistrar {
  /// Hands `event` of the observable stored property at `slot` of
  /// `subject` to this registrar, with the property's own key path
  /// (`\Sheet.title`), as `@Observable` reports it: through the
  /// ``ObservationReporter`` that `table`, the key table of the class that
  /// declares the registrar, made for it. A slot past that table's keys is
  /// a subclass's property, found through the table of `subject`'s class,
  /// with the key path rooted there.
  ///
  /// Not inlined: the one path every class's events take, compiled once,
  /// here, instead of a switch over each class's slots. The table comes
  /// borrowed from the class's constant, and the reporter borrowed from
  /// the table: an event retains nothing.
  ///
  /// Not API: the member the macro writes calls it.
  ///
  /// ```swift
  /// _$kvoObservationRegistrar._$kvoReport(.willSet, self, slot: 0, in: Self._$kvoKeys_Sheet)
  /// ```
  @inlinable @inline(__always)
  public func _$kvoReport(
    _ event: _KeyValueObservationEvent,
    _ subject: some KeyValueObservable,
    slot: Int,
    in table: _KeyValueKeyTable
  ) {
    guard let reporter = table.ownObservationReporter(forSlot: slot) else {
      return _$kvoReportElsewhere(event, subject, slot: slot, in: table)
    }
    reporter._withUnsafeGuaranteedRef { $0.report(event, to: self, of: subject) }
  }

  /// ``_$kvoReport(_:_:slot:in:)`` for a slot that `table` does not number
  /// itself: a superclass's property, or a subclass's, found through the
  /// table of `subject`'s class, with its key path rooted there.
  @usableFromInline
  func _$kvoReportElsewhere(
    _ event: _KeyValueObservationEvent,
    _ subject: some KeyValueObservable,
    slot: Int,
    in table: _KeyValueKeyTable
  ) {
    let reporter =
      slot < table.keyCount
      ? table.observationReporter(forSlot: slot)
      : type(of: subject)._$kvoKeys.observationReporter(forSlot: slot)
    reporter?._withUnsafeGuaranteedRef { $0.report(event, to: self, of: subject) }
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
