import Dispatch
import KeyValueObserving
import Testing

/// An observable object that is also a classic observer: two of them
/// observing each other make a cycle.
@KeyValueObservable
final class GraphSentinel: KeyValueObserver, @unchecked Sendable {
  var level = 0

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {}
}

/// `text` without the registration sites a debug build of the library
/// shows on each edge (`, KeyValueObservingTests/File.swift:12`), for
/// comparisons that should not move when a test moves.
func withoutSites(_ text: String) -> String {
  text.replacing(#/, [A-Za-z]+/[A-Za-z+]+\.swift:\d+/#, with: "")
}

/// What observes through a controller.
final class GraphScreen {}

@Suite("the observation graph: who observes whom, as text, DOT and Mermaid")
struct ObservationGraphTests {
  @Test("a token on a stored key is an edge from an anonymous closure to the object, in every format")
  func tokenOnStoredKey() {
    let person = Person()
    let token = person.observe(\.name, options: [.old, .new]) { _, _ in }
    let graph = KeyValueObservationGraph(from: [person])
    #expect(graph.nodes.map(\.kind) == [.object, .anonymous])
    #expect(
      withoutSites(graph.description) == """
        KeyValueObservationGraph: 2 nodes, 1 edge
        closure (Person, KeyValueObservedChange<String>) #2 → Person #1: name [.new, .old] (token)
        """
    )
    #expect(
      withoutSites(graph.dot) == """
        digraph KeyValueObservationGraph {
          rankdir=LR;
          n1 [label="Person #1", shape=box];
          n2 [label="closure (Person, KeyValueObservedChange<String>) #2", shape=ellipse];
          n2 -> n1 [label="name [.new, .old] (token)"];
        }
        """
    )
    #expect(
      withoutSites(graph.mermaid) == """
        flowchart LR
          n1["Person #35;1"]
          n2(["closure (Person, KeyValueObservedChange#lt;String#gt;) #35;2"])
          n2 -->|"name [.new, .old] (token)"| n1
        """
    )
    token.invalidate()
    #expect(withoutSites(KeyValueObservationGraph(from: [person]).description) == "KeyValueObservationGraph: 1 node, 0 edges\nPerson #1")
  }

  @Test("an object nobody ever observed is a node alone")
  func unobservedObject() {
    let graph = KeyValueObservationGraph(from: [Person()])
    #expect(graph.nodes.map(\.label) == ["Person #1"])
    #expect(graph.nodes.map(\.kind) == [.object])
    #expect(graph.edges.isEmpty)
  }

  @Test("a chain is drawn on its object with what it reads, and a dashed dependency edge to the link's object")
  func chainAndDependency() {
    let resident = Resident()
    let address = Address(street: "Main")
    resident.address = address
    let token = resident.observe(\.address?.street, options: .new) { _, _ in }
    let graph = KeyValueObservationGraph(from: [resident])
    #expect(
      withoutSites(graph.description) == """
        KeyValueObservationGraph: 3 nodes, 2 edges
        closure (Resident, KeyValueObservedChange<Optional<String>>) #2 → Resident #1: address?.street [.new] ← address, Address.street (token)
        Resident #1 ⇢ Address #3: street, for address?.street (dependency)
        """
    )
    #expect(withoutSites(graph.dot).contains("n1 -> n3 [label=\"street, for address?.street (dependency)\", style=dashed];"))
    #expect(withoutSites(graph.mermaid).contains("n1 -.->|\"street, for address?.street (dependency)\"| n3"))
    // From the link, the walk goes back to the object whose key depends on it.
    let fromLink = KeyValueObservationGraph(from: [address])
    #expect(fromLink.nodes.map(\.label) == ["Address #1", "Resident #2", "closure (Resident, KeyValueObservedChange<Optional<String>>) #3"])
    #expect(fromLink.edges.map(\.kind) == [.token, .dependency])
    // A replaced link is followed: the old one is no longer in the graph.
    resident.address = Address(street: "Side")
    #expect(KeyValueObservationGraph(from: [resident]).edges.map(\.to) == [1, 3])
    #expect(KeyValueObservationGraph(from: [address]).edges.isEmpty)
    _ = token
  }

  @Test("a computed key lists what it reads on its own object, with no dependency edge")
  func computedKey() {
    let person = Person()
    let token = person.observe(\.summary) { _, _ in }
    let graph = KeyValueObservationGraph(from: [person])
    #expect(graph.edges.map { withoutSites($0.label) } == ["summary [] ← name, age (token)"])
    #expect(graph.edges.map(\.kind) == [.token])
    _ = token
  }

  @Test("a controller is one hexagon for all it observes; depth bounds which objects are walked")
  func controller() {
    let screen = GraphScreen()
    let first = Person()
    let second = Person()
    let controller = KVOController(observer: screen)
    controller.observe(first, \.name, options: .new) { _, _, _ in }
    controller.observe(second, \.age) { _, _, _ in }
    try? controller.observe(second, keyPath: "name", options: .old) { _, _, _ in }

    let graph = KeyValueObservationGraph(from: [first])
    #expect(
      withoutSites(graph.description) == """
        KeyValueObservationGraph: 3 nodes, 3 edges
        KVOController<GraphScreen> #2 → Person #1: name [.new] (controller)
        KVOController<GraphScreen> #2 → Person #3: name [.old] (controller)
        KVOController<GraphScreen> #2 → Person #3: age [] (controller)
        """
    )
    #expect(withoutSites(graph.dot).contains("n2 [label=\"KVOController<GraphScreen> #2\", shape=hexagon];"))
    #expect(withoutSites(graph.mermaid).contains("n2{{\"KVOController#lt;GraphScreen#gt; #35;2\"}}"))

    let near = KeyValueObservationGraph(from: [first], depth: 0)
    #expect(near.edges.count == 1, "the other object is not walked")
    #expect(near.nodes.count == 2)

    controller.unobserveAll()
    #expect(KeyValueObservationGraph(from: [first, second]).edges.isEmpty)
  }

  @Test("classic observers: a plain one is its own node; two observable ones observing each other are a cycle")
  func classicObservers() throws {
    let person = Person()
    let log = ChangeLog()
    try person.addObserver(log, forKeyPath: "age", options: .new)
    let plain = KeyValueObservationGraph(from: [person])
    #expect(withoutSites(plain.description).hasSuffix("ChangeLog #2 → Person #1: age [.new] (classic)"))
    #expect(plain.nodes.last?.kind == .observer)
    #expect(plain.dot.contains("n2 [label=\"ChangeLog #2\", shape=box, style=rounded];"))
    #expect(plain.mermaid.contains("n2(\"ChangeLog #35;2\")"))

    let a = GraphSentinel()
    let b = GraphSentinel()
    try a.addObserver(b, forKeyPath: "level")
    try b.addObserver(a, forKeyPath: "level", options: .old)
    let cycle = KeyValueObservationGraph(from: [a])
    #expect(
      withoutSites(cycle.description) == """
        KeyValueObservationGraph: 2 nodes, 2 edges
        GraphSentinel #2 → GraphSentinel #1: level [] (classic)
        GraphSentinel #1 → GraphSentinel #2: level [.old] (classic)
        """
    )
    #expect(cycle.nodes.map(\.kind) == [.object, .object])
    person.removeObserver(log, forKeyPath: "age")
    a.removeObserver(b, forKeyPath: "level")
    b.removeObserver(a, forKeyPath: "level")
  }

  @Test("sequences and delivering closures are anonymous nodes, named by what they are")
  func sequencesAndDelivery() {
    let person = Person()
    let changes = person.changes(for: \.age)
    let values = person.values(for: \.name)
    let gauge = Gauge()
    let queued = gauge.observe(\.level, on: DispatchQueue(label: "graph.queue")) { _, _ in }
    // The objects the walk starts at are numbered first.
    let graph = KeyValueObservationGraph(from: [person, gauge])
    #expect(
      withoutSites(graph.description) == """
        KeyValueObservationGraph: 5 nodes, 3 edges
        values(for:) sequence #3 → Person #1: name [.new, .initial] (stream)
        changes(for:) sequence #4 → Person #1: age [.new] (stream)
        closure on graph.queue #5 → Gauge #2: level [] (token)
        """
    )
    _ = (changes, values, queued)
  }

  @Test("freed objects and freed classic observers are not in the graph")
  func freedAreAbsent() throws {
    let person = Person()
    var log: ChangeLog? = ChangeLog()
    try person.addObserver(log!, forKeyPath: "name")
    log = nil
    #expect(KeyValueObservationGraph(from: [person]).edges.isEmpty)

    let resident = Resident()
    var address: Address? = Address(street: "Main")
    resident.address = address
    let token = resident.observe(\.address?.street) { _, _ in }
    resident.address = nil
    address = nil
    #expect(KeyValueObservationGraph(from: [resident]).nodes.map(\.label).allSatisfy { !$0.hasPrefix("Address") })
    _ = token
  }

  @Test("in a debug build each edge names the file and line of the call that made it; a dependency none")
  func registrationSites() throws {
    let person = Person()
    let resident = Resident()
    resident.address = Address(street: "x")
    let gauge = Gauge()
    let log = ChangeLog()
    let controller = KVOController(observer: GraphScreen())
    var lines: [Int] = []
    let stored = person.observe(\.name) { _, _ in }; lines.append(#line)
    let computed = person.observe(\.summary) { _, _ in }; lines.append(#line)
    let changes = person.changes(for: \.age); lines.append(#line)
    let values = person.values(for: \.age); lines.append(#line)
    try person.addObserver(log, forKeyPath: "nickname"); lines.append(#line)
    controller.observe(person, \.tags) { _, _, _ in }; lines.append(#line)
    try controller.observe(gauge, keyPath: "level") { _, _, _ in }; lines.append(#line)
    let queued = gauge.observe(\.level, on: DispatchQueue(label: "q")) { _, _ in }; lines.append(#line)
    let chain = resident.observe(\.address?.street) { _, _ in }; lines.append(#line)

    let graph = KeyValueObservationGraph(from: [person, gauge, resident])
    let sites = graph.edges.filter { $0.kind != .dependency }.compactMap(\.site)
    #if DEBUG
      let expected = lines.map { "KeyValueObservingTests/ObservationGraphTests.swift:\($0)" }
      #expect(Set(sites) == Set(expected))
      #expect(sites.count == expected.count)
      #expect(graph.edges.first { $0.kind == .dependency }?.site == nil)
      #expect(graph.description.contains("(token, KeyValueObservingTests/ObservationGraphTests.swift:\(lines[0]))"))
    #else
      #expect(sites.isEmpty)
    #endif
    person.removeObserver(log, forKeyPath: "nickname")
    _ = (stored, computed, changes, values, queued, chain)
  }

  @Test("the same registrations give the same text")
  func deterministic() {
    let person = Person()
    let resident = Resident()
    resident.address = Address(street: "x")
    let tokens = [
      person.observe(\.name) { _, _ in }, person.observe(\.summary) { _, _ in },
      resident.observe(\.address?.street) { _, _ in },
    ]
    let first = KeyValueObservationGraph(from: [person, resident])
    let second = KeyValueObservationGraph(from: [person, resident])
    #expect(first == second)
    #expect(first.dot == second.dot && first.mermaid == second.mermaid)
    _ = tokens
  }

  @Test("labels are escaped for DOT and for Mermaid")
  func escaping() {
    let gauge = Gauge()
    let token = gauge.observe(\.level, on: DispatchQueue(label: "q \"1\" <a|b>")) { _, _ in }
    let graph = KeyValueObservationGraph(from: [gauge])
    #expect(withoutSites(graph.dot).contains(#"n2 [label="closure on q \"1\" <a|b> #2", shape=ellipse];"#))
    #expect(withoutSites(graph.mermaid).contains(#"n2(["closure on q #quot;1#quot; #lt;a#124;b#gt; #35;2"])"#))
    _ = token
  }

  @Test("a snapshot taken while other threads register, invalidate and write is consistent")
  func concurrentSnapshot() async {
    let gauges = (0..<3).map { _ in Gauge() }
    let steady = gauges.map { $0.observe(\.level) { _, _ in } }
    await withTaskGroup(of: Void.self) { group in
      for gauge in gauges {
        group.addTask {
          for step in 0..<300 {
            let token = gauge.observe(\.level, options: .new) { _, _ in }
            gauge.level = step
            token.invalidate()
          }
        }
      }
      group.addTask {
        for _ in 0..<100 {
          let graph = KeyValueObservationGraph(from: gauges)
          // The steady registrations are always there; each edge's ends are nodes.
          #expect(graph.edges.filter { $0.options == [] }.count == 3)
          #expect(graph.edges.allSatisfy { $0.from <= graph.nodes.count && $0.to <= graph.nodes.count })
        }
      }
    }
    _ = steady
  }
}
