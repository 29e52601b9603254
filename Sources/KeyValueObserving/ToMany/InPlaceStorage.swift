/// The storage of the observable stored property a key path names on one
/// object: the object, the property's slot, and accessors that change it
/// in place. A class, so that a proxy's call takes one reference to it,
/// not one to the object and one to each accessor.
///
/// The collection proxies change their property through it, inside one
/// change of its key, so that an `append` through ``KeyValueMutableArray``
/// costs what `Array.append` does, at any size. The accessors are the ones
/// the macro's table hands over, which run the property's own
/// `willSet`/`didSet` as an assignment would.
///
/// There is none (the proxy goes through the property's accessors) for a
/// key that is not one observable stored property, for a property a marked
/// subclass overrides, and for objects of a subclass the macro did not
/// mark, whose overrides nothing lists.
@usableFromInline
final class InPlaceStorage<Object: KeyValueObservable, Value> {
  @usableFromInline let object: Object
  @usableFromInline let slot: Int
  @usableFromInline let accessors: _KeyValueTypedStorage<Value>

  /// The storage of the property `keyPath` names on `object`'s class, or
  /// `nil` when there is none.
  init?(_ keyPath: AnyKeyPath, of object: Object) {
    guard let slot = Object._$kvoSlot(for: keyPath) else { return nil }
    let (handled, outcome) = object.accessStorage(ofSlot: slot, .accessors)
    guard handled, let accessors = outcome.accessors as? _KeyValueTypedStorage<Value> else { return nil }
    self.object = object
    self.slot = slot
    self.accessors = accessors
  }

  /// The property's value.
  @inlinable
  var value: Value {
    accessors.get(object)
  }

  /// Changes the property's value in place, notifying nobody: inside a
  /// change of its key that notifies for it.
  @inlinable
  func modify(_ change: (inout Value) -> Void) {
    accessors.modify(change, object)
  }

  /// ``modify(_:)`` as the mutation of the manual to-many change of its
  /// key that the caller opened: a property with observers of its own,
  /// which may change it again, is watched, and such a change makes that
  /// change's record a setting (see ``FoldWatch``).
  func modifyInOpenChange(_ change: (inout Value) -> Void) {
    guard accessors.hasPropertyObservers, let storage = object._$kvoObservedStorage?.takeUnretainedValue() else {
      return modify(change)
    }
    storage.watchingMutation(object, slot: slot, value: accessors.get) { accessors.modify(change, object) }
  }

  /// Makes `change` of the property's value in place, as one change of its
  /// key shaped `shape`, whose notifications carry what `values` reads: the
  /// elements the change touches (or, when another change of the key folds
  /// into it, the whole values: a setting); one mutation, for Swift
  /// Observation.
  @inlinable
  func change(
    _ shape: ChangeShape,
    values: (Value) -> Value,
    _ change: (inout Value) -> Void
  ) {
    object._$kvoObservedMutation(ofSlot: slot) {
      guard let storage = object._$kvoObservedStorage, storage._withUnsafeGuaranteedRef({ $0.isObserved(slot: slot) })
      else {
        accessors.modify(change, object)
        return
      }
      storage._withUnsafeGuaranteedRef { storage in
        storage.notifyingCollectionChange(
          object,
          slot: slot,
          shape: shape,
          mayNest: accessors.hasPropertyObservers,
          value: { accessors.get($0) },
          elements: values,
          change: { accessors.modify(change, $0) }
        )
      }
    }
  }
}
