/// Changes the value of an observable stored property where it is stored,
/// without the copy that a write through a key path to the property makes
/// (its getter hands out a second reference, so the first mutation copies).
///
/// The collection proxies use it between their will- and did-change, so an
/// `append` through ``KeyValueMutableArray`` costs what `Array.append` does,
/// at any size. It writes the property's backing storage through the
/// accessors the macro's table hands over, which run the property's own
/// `willSet`/`didSet` as an assignment would.
///
/// There is none (the proxy falls back to the property's accessors) for a
/// key that is not one observable stored property, for a property a marked
/// subclass overrides, and for objects of a subclass the macro did not
/// mark, whose overrides nothing lists.
struct InPlaceStorage<Object: KeyValueObservable, Value> {
  /// Runs its closure on the storage of the property, in `object`.
  let modify: (Object, (inout Value) -> Void) -> Void

  /// The in-place access to the property `keyPath` names on `object`'s
  /// class, or `nil` when there is none.
  init?(_ keyPath: AnyKeyPath, of object: Object) {
    let access = _KeyValueStorageAccess(.modifier)
    guard let slot = Object._$kvoSlot(for: keyPath), object.accessStorage(ofSlot: slot, access),
      let modifier = access.modifier as? (AnyObject, (inout Value) -> Void) -> Void
    else { return nil }
    modify = { object, body in modifier(object, body) }
  }
}
