extension KeyValueObservationGraph {
  /// The graph in Graphviz's DOT language: objects are boxes, controllers
  /// hexagons, classic observers rounded boxes, anonymous observers
  /// ellipses; a dependency is a dashed edge.
  ///
  /// ```swift
  /// print(graph.dot)  // saved as kvo.dot: dot -Tpng kvo.dot -o kvo.png
  /// ```
  public var dot: String {
    var lines = ["digraph KeyValueObservationGraph {", "  rankdir=LR;"]
    for node in nodes {
      lines.append("  n\(node.id) [label=\(Self.dotQuoted(node.label)), shape=\(Self.dotShape(of: node.kind))];")
    }
    for edge in edges {
      let style = edge.kind == .dependency ? ", style=dashed" : ""
      lines.append("  n\(edge.from) -> n\(edge.to) [label=\(Self.dotQuoted(edge.label))\(style)];")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The graph as a Mermaid flowchart, which GitHub draws where Markdown
  /// holds it in a `mermaid` code block: objects are rectangles,
  /// controllers hexagons, classic observers rounded, anonymous observers
  /// stadiums; a dependency is a dotted edge.
  ///
  /// ```swift
  /// print("```mermaid\n\(graph.mermaid)\n```")
  /// ```
  public var mermaid: String {
    var lines = ["flowchart LR"]
    for node in nodes {
      let (open, close) = Self.mermaidShape(of: node.kind)
      lines.append("  n\(node.id)\(open)\"\(Self.mermaidEscaped(node.label))\"\(close)")
    }
    for edge in edges {
      let arrow = edge.kind == .dependency ? "-.->" : "-->"
      lines.append("  n\(edge.from) \(arrow)|\"\(Self.mermaidEscaped(edge.label))\"| n\(edge.to)")
    }
    return lines.joined(separator: "\n")
  }

  private static func dotShape(of kind: NodeKind) -> String {
    switch kind {
    case .object: "box"
    case .controller: "hexagon"
    case .observer: "box, style=rounded"
    case .anonymous: "ellipse"
    }
  }

  private static func mermaidShape(of kind: NodeKind) -> (String, String) {
    switch kind {
    case .object: ("[", "]")
    case .controller: ("{{", "}}")
    case .observer: ("(", ")")
    case .anonymous: ("([", "])")
    }
  }

  /// `text` as a DOT string: quoted, with quotes and backslashes escaped
  /// and line breaks as `\n`.
  private static func dotQuoted(_ text: String) -> String {
    let escaped = replacing(in: text) { character in
      switch character {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "\n": "\\n"
      default: nil
      }
    }
    return "\"" + escaped + "\""
  }

  /// `text` inside a quoted Mermaid label: the characters Mermaid or its
  /// HTML labels would read as syntax, as Mermaid's `#code;` entities.
  private static func mermaidEscaped(_ text: String) -> String {
    replacing(in: text) { character in
      switch character {
      case "\"": "#quot;"
      case "#": "#35;"
      case "<": "#lt;"
      case ">": "#gt;"
      case "|": "#124;"
      case "\n": " "
      default: nil
      }
    }
  }

  /// `text` with each character that `replacement` gives text for replaced
  /// by it.
  private static func replacing(in text: String, _ replacement: (Character) -> String?) -> String {
    var result = ""
    for character in text {
      if let replaced = replacement(character) {
        result += replaced
      } else {
        result.append(character)
      }
    }
    return result
  }
}
