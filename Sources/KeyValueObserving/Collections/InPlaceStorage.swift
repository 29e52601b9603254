/// Changes the value of an observable stored property where it is stored,
/// without the copy that a write through a key path to the property makes
/// (its getter hands out a second reference, so the first mutation copies).
///
/// The collection proxies use it between their will- and did-change, so an
/// `append` through ``KeyValueMutableArray`` costs what `Array.append` does,
/// at any size. It writes the property's backing storage through the key
/// path the macro generates for it, which runs the property's own
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
    let access = _KeyValueStorageAccess(.keyPath)
    guard let slot = Object._$kvoSlot(for: keyPath), object.accessStorage(ofSlot: slot, access),
      let storageKeyPath = access.keyPath
    else { return nil }
    // The storage key path is rooted at the class that declares the
    // property: `Object` itself or one of its superclasses.
    func modifier<Root>(rootedAt _: Root.Type) -> ((Object, (inout Value) -> Void) -> Void)? {
      guard let typed = storageKeyPath as? ReferenceWritableKeyPath<Root, Value> else { return nil }
      return { object, body in
        // `object` is an instance of `Root` (a class): the declaring class
        // is `Object` or an ancestor of it.
        body(&unsafeBitCast(object, to: Root.self)[keyPath: typed])
      }
    }
    guard let modify = _openExistential(type(of: storageKeyPath).rootType, do: modifier) else { return nil }
    self.modify = modify
  }
}
