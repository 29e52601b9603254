/// Finding one property of a class's table from a key path written on any
/// class of its hierarchy: for descriptions, and for the key path a
/// computed property's observations and announcements meet under.
extension _KeyValueKeyTable {
  /// The name of the property, this class's or a superclass's, that a key
  /// path component with `identity` reads (see ``KeyPathComponents``):
  /// for descriptions, not asked on any path a change takes.
  func name(ofPropertyWithIdentity identity: UInt) -> String? {
    key(withIdentity: identity)?.name
  }

  /// The property, this class's or a superclass's, that a key path
  /// component with `identity` reads.
  private func key(withIdentity identity: UInt) -> _KeyValueKey? {
    let own = (stored + others).first { key in
      key.keyPath.flatMap { KeyPathComponents(of: $0)?.steps.first?.component.identity } == identity
    }
    return own ?? superTable?.key(withIdentity: identity)
  }

  /// The property one-component `keyPath` names, stored or not, whatever
  /// class of the hierarchy it is rooted at (`\Sub.mode` names
  /// `Base.mode`), and whether this class or a subclass overrides it.
  func key(forAnyRoot keyPath: AnyKeyPath) -> _KeyValueKey? {
    if let key = key(for: keyPath) { return key }
    guard let steps = KeyPathComponents(of: keyPath)?.steps, steps.count == 1,
      let identity = steps[0].component.identity
    else { return nil }
    return key(withIdentity: identity)
  }

  /// The key path under which the observations and announcements of the
  /// property `keyPath` names meet: that of the first class up the
  /// hierarchy that declares a property of its name — an override is filed
  /// as the property it overrides —, whatever subclass `keyPath` is rooted
  /// at; `keyPath` itself when it names no one property. A computed
  /// property has no slot, so its observations are filed under a key
  /// path, which must be the same for `sub.observe(\.mode)`,
  /// `(sub as Base).observe(\.mode)` and `sub.setValue(1, forKey: "mode")`.
  func filingKeyPath(for keyPath: AnyKeyPath) -> AnyKeyPath {
    guard let key = key(forAnyRoot: keyPath) else { return keyPath }
    return rootmostKey(named: key.name)?.keyPath ?? keyPath
  }

  private func rootmostKey(named name: String) -> _KeyValueKey? {
    superTable?.rootmostKey(named: name) ?? (stored + others).first { $0.name == name }
  }

  /// Whether this class or a superclass may have a computed property
  /// whose announcements are filed under its key path (see
  /// ``filingKeyPath(ofComputed:)``): a property that is neither stored
  /// nor a constant nor unannounced. Most model classes have none, and a
  /// chain ending in one of their properties looks no further (see
  /// ``ComputedLeaf``).
  var mayHaveAnnouncedComputedKeys: Bool {
    others.contains { !$0.isConstant && !$0.isUnannounced } || superTable?.mayHaveAnnouncedComputedKeys == true
  }

  /// The filing key path (see ``filingKeyPath(for:)``) of the computed
  /// property `keyPath` names — one with no storage of its own, neither a
  /// constant nor an unannounced stored one, whose writes key-value coding
  /// and bindings announce —, or `nil` when it names no such property.
  func filingKeyPath(ofComputed keyPath: AnyKeyPath) -> AnyKeyPath? {
    guard let key = key(forAnyRoot: keyPath),
      key.getter != nil || (slot(forKey: key.name) == nil && !key.isConstant && !key.isUnannounced)
    else { return nil }
    return rootmostKey(named: key.name)?.keyPath ?? keyPath
  }
}
