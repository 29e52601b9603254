/// A snapshot of who observes whom, from some objects outwards: the
/// observation graph that ``KeyValueObservable/observationInfo`` shows one
/// object at a time, as a picture.
///
/// Nodes are the observed objects, the controllers and classic observers
/// that observe them, and the anonymous observers — closures, async
/// sequences, publisher subscriptions — each numbered in the order the walk
/// met it. An edge goes from who observes to the object observed, labelled
/// with the key, the options and the kind of registration. From each object
/// the walk goes on to the objects it leads to: the other objects a
/// computed key or a chain depends on (and back from a dependency to the
/// object observed), the other objects a controller observes, and a classic
/// observer that is observed itself.
///
/// ```swift
/// let token = person.observe(\.address?.city, options: .new) { _, _ in }
/// let graph = KeyValueObservationGraph(from: [person])
/// print(graph.mermaid)   // paste into Markdown: GitHub draws it
/// print(graph.dot)       // or render with Graphviz: dot -Tpng
/// print(graph)           // one line per edge
/// ```
///
/// Taking a snapshot copies each object's live registrations under its
/// lock (and a controller's or a computed key's list of what it observes
/// under theirs) and reads the rest with no lock held: writers wait only
/// for the copy, and no user code runs under a lock. Objects that are freed are not
/// in the graph; nor are Swift Observation's own trackings
/// (`withObservationTracking`, SwiftUI), which its registrar does not list.
/// The same registrations give the same text, so snapshots can be compared
/// and kept in tests.
public struct KeyValueObservationGraph: Sendable, Hashable, CustomStringConvertible {
  /// The nodes, in the order the walk met them — the objects it starts at
  /// first, in the order given; a node's ``Node/id`` is its position plus
  /// one.
  ///
  /// ```swift
  /// graph.nodes.map(\.label)  // ["Person #1", "closure (Person, KeyValueObservedChange<String>) #2"]
  /// ```
  public let nodes: [Node]

  /// The edges, in the order the walk met them: an object's registrations
  /// in the order ``KeyValueObservable/observationInfo`` lists them.
  ///
  /// ```swift
  /// graph.edges.map(\.key)  // ["name"]
  /// ```
  public let edges: [Edge]

  /// The graph reachable from `objects`, going at most `depth` objects
  /// away from them.
  ///
  /// ```swift
  /// let whole = KeyValueObservationGraph(from: [screen.model])
  /// let near = KeyValueObservationGraph(from: [screen.model], depth: 0)  // its own registrations only
  /// ```
  ///
  /// - Parameters:
  ///   - objects: Where the walk starts; each is a node, observed or not.
  ///   - depth: How many steps from `objects` the walk may list an
  ///     object's registrations: `0` (or less) lists only theirs (the
  ///     objects they lead to are drawn, not walked). Unbounded by default.
  /// - Complexity: O(*r*) in the registrations of the objects walked.
  public init(from objects: [any KeyValueObservable], depth: Int = .max) {
    var walk = ObservationGraphWalk(depth: max(0, depth))
    for object in objects {
      walk.start(at: object)
    }
    walk.run()
    nodes = walk.nodes
    edges = walk.edges
  }

  /// One line per edge, after a line that counts them; a node that no edge
  /// touches has a line of its own.
  ///
  /// ```swift
  /// print(graph)
  /// // KeyValueObservationGraph: 2 nodes, 1 edge
  /// // closure (Person, KeyValueObservedChange<String>) #2 → Person #1: name [.new] (token, App/Badge.swift:8)
  /// ```
  public var description: String {
    let count = "\(nodes.count) node\(nodes.count == 1 ? "" : "s"), \(edges.count) edge\(edges.count == 1 ? "" : "s")"
    var lines = ["KeyValueObservationGraph: \(count)"]
    let touched = Set(edges.flatMap { [$0.from, $0.to] })
    for node in nodes where !touched.contains(node.id) {
      lines.append(node.label)
    }
    for edge in edges {
      let arrow = edge.kind == .dependency ? "⇢" : "→"
      lines.append("\(node(edge.from).label) \(arrow) \(node(edge.to).label): \(edge.label)")
    }
    return lines.joined(separator: "\n")
  }

  /// The node numbered `id`.
  ///
  /// ```swift
  /// graph.node(graph.edges[0].to).label  // "Person #1"
  /// ```
  public func node(_ id: Int) -> Node {
    nodes[id - 1]
  }
}

extension KeyValueObservationGraph {
  /// Someone who observes, or something observed.
  ///
  /// ```swift
  /// let person = graph.nodes[0]  // kind .object, label "Person #1"
  /// ```
  public struct Node: Sendable, Hashable, Identifiable {
    /// Its number in the snapshot, from 1, in the order the walk met it.
    public let id: Int
    /// What it is.
    public let kind: NodeKind
    /// Its type or its description, and its number: `Person #1`,
    /// `KVOController<Screen> #3`, `changes(for:) sequence #4`.
    public let label: String
  }

  /// What a node is.
  ///
  /// ```swift
  /// graph.nodes.filter { $0.kind == .controller }
  /// ```
  public enum NodeKind: String, Sendable, Hashable {
    /// A `@KeyValueObservable` object: one node whether it is observed,
    /// observes, or both.
    case object
    /// A ``KVOController``.
    case controller
    /// A classic ``KeyValueObserver`` that is not observable itself.
    case observer
    /// Someone with no identity of its own: a closure, an async sequence,
    /// a publisher subscription. One node per registration.
    case anonymous
  }

  /// One registration: who observes (``from``) which key of which object
  /// (``to``); or, for ``EdgeKind/dependency``, a key of another object
  /// that a computed key or chain of ``from`` depends on.
  ///
  /// ```swift
  /// let edge = graph.edges[0]
  /// print(edge.key, edge.options, edge.kind)  // name [.new] token
  /// ```
  public struct Edge: Sendable, Hashable {
    /// The node that observes.
    public let from: Int
    /// The object observed.
    public let to: Int
    /// The key, or the key path as written for a computed key or a chain
    /// (`address.city`).
    public let key: String
    /// The options of the registration; empty for a dependency.
    public let options: KeyValueObservingOptions
    /// How the registration was made.
    public let kind: EdgeKind
    /// For a computed key or a chain, the keys its value depends on now
    /// (as ``KeyValueObservationInfo/dependencies`` gives them); for a
    /// dependency, the key path that depends on ``key``.
    public let dependencies: [String]
    /// Where the registration was made, `Module/File.swift:12`, when the
    /// library is a debug build; `nil` in a release build and for a
    /// dependency, which the library registers.
    public let site: String?

    /// The key with its options and dependencies, the kind, and where it
    /// was made: `address.city [.new] ← address, Address.city (token,
    /// App/Profile.swift:12)`, or for a dependency
    /// `city, for address.city (dependency)`.
    ///
    /// ```swift
    /// graph.edges[0].label  // "name [.new] (token, App/Badge.swift:8)" in a debug build
    /// ```
    public var label: String {
      let made = site.map { " (\(kind), \($0))" } ?? " (\(kind))"
      guard kind != .dependency else {
        return (dependencies.isEmpty ? key : "\(key), for \(dependencies.joined(separator: ", "))") + made
      }
      let base = "\(key) \(options)"
      return (dependencies.isEmpty ? base : base + " ← " + dependencies.joined(separator: ", ")) + made
    }
  }

  /// How a registration was made.
  ///
  /// ```swift
  /// graph.edges.filter { $0.kind == .stream }  // the changes(for:) and values(for:) sequences
  /// ```
  public enum EdgeKind: String, Sendable, Hashable, CustomStringConvertible {
    /// `observe` and its delivering forms, which return a token.
    case token
    /// A ``KVOController``'s `observe`.
    case controller
    /// `addObserver(_:forKeyPath:options:context:)`.
    case classic
    /// `changes(for:)` or `values(for:)`.
    case stream
    /// A `publisher(for:)` subscription.
    case publisher
    /// A key of another object that a computed key or chain depends on.
    case dependency

    /// The case's name.
    ///
    /// ```swift
    /// "\(KeyValueObservationGraph.EdgeKind.token)"  // "token"
    /// ```
    public var description: String { rawValue }
  }
}
