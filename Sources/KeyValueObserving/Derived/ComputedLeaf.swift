/// The computed property a typed chain ends in — `collapsed` of
/// `\.viewModel.collapsed`, a property over storage the macro cannot see
/// (a defaults store, a C struct, another object) —, named so that a read
/// of the chain can name it on the object its links hold now: its
/// announcements (a write through `setValue(_:forKey:)` or a binding, or
/// `withChange(for:)` in its setter) are filed under its key path there,
/// where a chain observation registers for them as a string chain's does
/// (see ``resolveDependencies(tracked:read:)``).
///
/// Found once, from the key path's components, when the observation
/// starts: every link a property of a `@KeyValueObservable` class, named
/// in its table. A chain that ends in a stored property has none.
///
/// ```swift
/// let leaf = ComputedLeaf(\Controller.viewModel.collapsed)  // links ["viewModel"], name "collapsed"
/// let key = leaf?.readKey(from: controller)                 // collapsed, on controller.viewModel
/// ```
struct ComputedLeaf {
  /// The links' names, from the root: `viewModel`.
  let links: [String]
  /// The computed property's name on the class the links reach.
  let name: String

  init?(_ keyPath: AnyKeyPath) {
    guard let components = KeyPathComponents(of: keyPath) else { return nil }
    let steps = components.steps
    guard
      let leafIndex = steps.lastIndex(where: { if case .optionalWrap = $0.component { false } else { true } }),
      leafIndex > 0,
      case .computed(let identity, argumentSize: 0, _) = steps[leafIndex].component,
      let holderType = steps[leafIndex].input as? any KeyValueObservable.Type,
      // Asked first: naming the property by its identity reads every key
      // path of the class's table.
      holderType._$kvoKeys.mayHaveAnnouncedComputedKeys,
      let name = holderType._$kvoKeys.name(ofPropertyWithIdentity: identity),
      let leafKeyPath = try? holderType.readableKeyPath(forKey: name),
      holderType._$kvoFilingKeyPath(ofComputed: leafKeyPath) != nil
    else { return nil }
    var links: [String] = []
    var storedNames: [Int: String]? = nil
    for (index, step) in steps[..<leafIndex].enumerated() {
      switch step.component {
      case .optionalChain, .optionalForce, .optionalWrap:
        continue
      case .computed(let identity, argumentSize: 0, _):
        guard let type = step.input as? any KeyValueObservable.Type,
          let link = type._$kvoKeys.name(ofPropertyWithIdentity: identity)
        else { return nil }
        links.append(link)
      case .stored:
        // A `let` link: named by Swift's description of the key path.
        if storedNames == nil { storedNames = components.storedPropertyNames() }
        guard step.input is any KeyValueObservable.Type, let link = storedNames?[index] else { return nil }
        links.append(link)
      case .computed:
        return nil
      }
    }
    self.links = links
    self.name = name
  }

  /// The property, on the object `root`'s links hold now, as read with
  /// the chain; `nil` when a link is `nil` or holds no observable object.
  func readKey(from root: any KeyValueObservable) -> ReadKey? {
    var object = root
    for link in links {
      guard let keyPath = try? type(of: object).readableKeyPath(forKey: link),
        let next = flattened(object[keyPath: keyPath]) as? any KeyValueObservable
      else { return nil }
      object = next
    }
    guard let keyPath = try? type(of: object).readableKeyPath(forKey: name) else { return nil }
    return ReadKey(object: object, keyPath: keyPath, isObservedKey: false)
  }
}
