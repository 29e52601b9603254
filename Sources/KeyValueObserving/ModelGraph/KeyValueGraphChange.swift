/// One change heard by ``KeyValueObservable/observeGraph(options:isolation:fileID:line:changeHandler:)``:
/// the object that changed, its key, and the change record with its values
/// as `Any`.
///
/// ```swift
/// let token = document.observeGraph(options: [.old, .new]) { change in
///     print(change.key, change.change.oldValue ?? "-", "→", change.change.newValue ?? "-")
/// }
/// document.items[0].text = "Milk"  // prints "text  → Milk"
/// ```
///
/// For a to-many change (``KeyValueChange/insertion``,
/// ``KeyValueChange/removal``, ``KeyValueChange/replacement``) the values
/// hold the affected elements only, as an array (or a set) of them, and
/// ``KeyValueObservedChange/indexes`` says where.
public struct KeyValueGraphChange {
  /// The object whose key changed.
  ///
  /// ```swift
  /// if let item = change.object as? Item { print(item.text) }
  /// ```
  public let object: any KeyValueObservable

  /// The key that changed, as a key path rooted at the class that declares
  /// it.
  ///
  /// ```swift
  /// if change.keyPath == \Item.text { print("renamed") }
  /// ```
  public var keyPath: AnyKeyPath { graphKey.keyPath }

  /// The key that changed, by name, as key-value coding names it.
  ///
  /// ```swift
  /// print(change.key)  // "text"
  /// ```
  public var key: String { graphKey.name }

  /// The key path and the name, in one reference: the graph's interned
  /// key, which the change holds without a retain.
  let keyReference: GraphKeyReference

  /// The key path and the name.
  var graphKey: GraphKey { keyReference.key }

  /// What happened, with the values the options asked for.
  ///
  /// ```swift
  /// print(change.change.kind, change.change.newValue as Any)
  /// ```
  public let change: KeyValueObservedChange<Any>

  /// Makes a graph change record; the library makes these, and tests and
  /// adapters can build expected ones.
  ///
  /// ```swift
  /// let renamed = KeyValueGraphChange(
  ///     object: item, keyPath: \Item.text, key: "text",
  ///     change: KeyValueObservedChange(kind: .setting, newValue: "Milk", oldValue: "")
  /// )
  /// ```
  public init(object: any KeyValueObservable, keyPath: AnyKeyPath, key: String, change: KeyValueObservedChange<Any>) {
    self.init(object: object, key: GraphKeyReference(owning: GraphKey(keyPath: keyPath, name: key)), change: change)
  }

  init(object: any KeyValueObservable, key: GraphKeyReference, change: consuming KeyValueObservedChange<Any>) {
    self.object = object
    keyReference = key
    self.change = change
  }
}
