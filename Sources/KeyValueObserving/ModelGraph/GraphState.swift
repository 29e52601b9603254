extension GraphObservation {
  // What the graph's lock guards (`GraphObservation.graphState`).

  /// A to-one link that may be `weak`, for a graph that hears its object
  /// freed (``KeyValueObservingOptions/deallocation``).
  struct WatchedLink {
    weak var holder: AnyObject?
    let slot: Int
  }

  /// The graph's membership, under its lock.
  struct State {
    /// The change handler, which each class is made with; `nil` once the
    /// graph ended.
    var handler: GraphHandler?
    /// The graph's objects' registrations, each with its count of links
    /// (``GraphNodeRegistration/incoming``): one reference a bucket, so that
    /// the table takes 16 bytes an object, not 24.
    var nodes: [ObjectIdentifier: GraphNodeRegistration] = [:]
    var classes: [ObjectIdentifier: GraphClass] = [:]
    /// Classes found in links that are not `@KeyValueObservable`,
    /// reported once each.
    var reportedClasses: Set<ObjectIdentifier> = []
    /// The to-one links to each object, for `.deallocation`.
    var watched: [ObjectIdentifier: [WatchedLink]] = [:]
  }
}
