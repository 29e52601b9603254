/// The components of a key path, read from the key path object as the
/// standard library lays it out: what a description of a key path as its
/// user wrote it (`items[0].name`, `address?.city?.name`) and the refusal
/// of positional subscripts (see ``isIndexingArray``) need, and Swift
/// offers no API for.
///
/// The walk follows the constants of the runtime's ABI header
/// (`shims/KeyPath.h`). Every read stays inside the key path's buffer; a
/// layout it does not recognise gives `nil`.
struct KeyPathComponents {
  /// One component, with the type it reads from and the type it gives.
  struct Step {
    let component: Component
    let input: Any.Type
    let output: Any.Type
    /// A stored `var`, or a computed property or subscript with a setter.
    let isWritable: Bool
  }

  enum Component {
    /// A property or a subscript read through accessors — every property
    /// the macro writes accessors for —, with the identity the runtime
    /// compares key paths by: the same property gives the same identity in
    /// every key path of this process. `argumentSize`: the size of the
    /// arguments it captured — a subscript's, or the generic arguments of
    /// a property of a generic type; `leadingInt`, the first word of them.
    case computed(identity: UInt, argumentSize: Int, leadingInt: Int?)
    /// A stored property reached by its offset; `isMutable`, a `var`.
    case stored(isMutable: Bool)
    /// `?.`: the rest is read only from a value that is not `nil`.
    case optionalChain
    /// `!`.
    case optionalForce
    /// The wrapping in an optional that ends a key path through `?.`,
    /// which its user does not write.
    case optionalWrap

    /// The identity of a computed component.
    var identity: UInt? {
      guard case .computed(let identity, _, _) = self else { return nil }
      return identity
    }
  }

  let steps: [Step]

  /// The key path, whose own description names stored properties (see
  /// ``storedPropertyNames()``).
  let keyPath: AnyKeyPath

  /// The components of `keyPath`; `nil` for a layout the walk does not
  /// know.
  init?(of keyPath: AnyKeyPath) {
    self.keyPath = keyPath
    let pointerSize = MemoryLayout<Int>.size
    // The object: its header, `_kvcKeyPathStringPtr`, then the buffer:
    // a 32-bit header (size and flags), padded to a word, then components.
    let objectStart = UnsafeRawPointer(Unmanaged.passUnretained(keyPath).toOpaque())
    let bufferStart = objectStart + 2 * pointerSize + pointerSize
    let bufferHeader = bufferStart.load(as: UInt32.self)
    let size = Int(bufferHeader & 0x00FF_FFFF)
    var cursor = bufferStart + pointerSize
    let end = cursor + size
    var input: Any.Type = type(of: keyPath).rootType
    var steps: [Step] = []
    while cursor + 4 <= end {
      let header = cursor.load(as: UInt32.self)
      cursor += 4
      let body = cursor
      guard let component = Self.component(header: header, body: body, end: end),
        let bodySize = Self.bodySize(header: header, body: body, end: end)
      else { return nil }
      cursor += bodySize
      // The type the component gives: recorded after it, or the key
      // path's value type after the last one.
      let output: Any.Type
      if cursor >= end {
        output = type(of: keyPath).valueType
      } else {
        cursor = cursor.alignedUp(for: Int.self)
        guard cursor + pointerSize <= end else { return nil }
        output = unsafeBitCast(cursor.load(as: UnsafeRawPointer.self), to: Any.Type.self)
        cursor += pointerSize
      }
      let isWritable =
        switch component {
        case .stored(let isMutable): isMutable
        case .computed: header & Self.settableFlag != 0
        case .optionalChain, .optionalForce, .optionalWrap: false
        }
      steps.append(Step(component: component, input: input, output: output, isWritable: isWritable))
      input = output
    }
    self.steps = steps
  }

  /// Whether the key path applies a non-optional subscript to an `Array`,
  /// `ContiguousArray` or `ArraySlice` — `\.items[0]`, `\.rows[2].title`,
  /// `\.items[1..<3]` —, whose read stops the program once the array no
  /// longer has that position: the one kind of key path whose later
  /// re-reads, which an observation makes after every change, cannot be
  /// made safe. `observe` refuses it (see `KeyValueObservable.register`).
  /// A subscript that returns an optional (a `[safe:]` subscript, a
  /// dictionary's) cannot stop the program and is accepted.
  var isIndexingArray: Bool {
    steps.contains { step in
      guard case .computed(_, let argumentSize, _) = step.component, argumentSize > 0 else { return false }
      return step.input is any PositionallyIndexed.Type && !(step.output is any OptionalValue.Type)
    }
  }

  /// The first class past the root whose own writable property the key
  /// path reads with nothing to announce its changes — `Theme` in
  /// `\.theme.accent`, where `Theme` is a class the macro did not mark (or
  /// an unmarked subclass of a marked one) —, or `nil`. Only a replacement
  /// of the object holding such a property notifies.
  ///
  /// `lastRead` is the type of the value the read last registered with: a
  /// getter of the class that reads marked objects (a computed property)
  /// registers with them, and its changes are announced; the class is
  /// named only when the read reached it and registered nothing after.
  /// A non-final class's stored property and a computed one with a setter
  /// look alike in a key path, and are told apart that way; a constant
  /// (`let`, or a computed property without a setter) is never named.
  func unannouncingClass(lastRead: @autoclosure () -> Any.Type?) -> Any.Type? {
    let reached = steps.dropFirst().first { step in
      guard step.isWritable, Self.announcesNothing(step.input) else { return false }
      switch step.component {
      case .stored: return true
      case .computed(_, let argumentSize, _): return argumentSize == 0
      case .optionalChain, .optionalForce, .optionalWrap: return false
      }
    }
    guard let plain = reached?.input, let lastRead = lastRead() else { return nil }
    let read = (lastRead as? any OptionalValue.Type)?.wrappedType ?? lastRead
    return ObjectIdentifier(read) == ObjectIdentifier(plain) ? plain : nil
  }

  /// The class and name of the property that ends a key path of more than
  /// one property when it is a stored `var` that a class the macro marked
  /// declares without announcing it — a `@KeyValueIgnored` one —, or
  /// `nil`: only a new object on the way notifies then, never the
  /// property's own changes. Seen where the key path reads the property
  /// by its offset: a final class's (a non-final class's stored property
  /// is read through accessors, as a computed one is).
  var unannouncedLeaf: (type: Any.Type, name: String?)? {
    guard let index = steps.lastIndex(where: { if case .optionalWrap = $0.component { false } else { true } }),
      index > 0
    else { return nil }
    let step = steps[index]
    guard case .stored = step.component, step.isWritable, step.input is any KeyValueObservable.Type,
      !Self.announcesNothing(step.input)
    else { return nil }
    return (step.input, storedPropertyNames()[index])
  }

  /// Whether the properties `type` declares announce nothing: a class the
  /// macro did not mark, or an unmarked subclass of a marked one.
  private static func announcesNothing(_ type: Any.Type) -> Bool {
    guard type is AnyObject.Type else { return false }
    guard let observable = type as? any KeyValueObservable.Type else { return true }
    func unmarked<Object: KeyValueObservable>(_: Object.Type) -> Bool { UnmarkedClass.of(Object.self) != nil }
    return unmarked(observable)
  }

  /// The name of each stored component, by its index in ``steps``, as
  /// Swift's description of the key path gives it — the one place a
  /// stored property of a class the macro did not mark is named, from the
  /// runtime's field records. The description has one dot-separated part
  /// per property or subscript (`\Root.link?.items.<computed 0x… (Item)>.name?`),
  /// after the root's name, which may itself hold dots: parts and steps
  /// are matched from the end. A part that is not a plain name is left out.
  func storedPropertyNames() -> [Int: String] {
    var parts: [Substring] = []
    let description = "\(keyPath)"
    var depth = 0
    var start = description.startIndex
    for index in description.indices {
      switch description[index] {
      case "<", "(", "[": depth += 1
      case ">", ")", "]": depth -= 1
      case "." where depth == 0:
        parts.append(description[start..<index])
        start = description.index(after: index)
      default: break
      }
    }
    parts.append(description[start...])
    var names: [Int: String] = [:]
    var remaining = parts.dropFirst()  // the root's name, or its last part
    for (index, step) in steps.enumerated().reversed() {
      switch step.component {
      case .optionalChain, .optionalForce, .optionalWrap: continue
      case .computed, .stored: break
      }
      guard let part = remaining.popLast() else { break }
      let name = part.prefix { $0 != "?" && $0 != "!" }
      if case .stored = step.component, let first = name.first, first == "_" || first.isLetter,
        name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
      {
        names[index] = String(name)
      }
    }
    return names
  }

  // The runtime's constants (`shims/KeyPath.h`).
  private static let structTag: UInt32 = 1
  private static let computedTag: UInt32 = 2
  private static let classTag: UInt32 = 3
  private static let optionalTag: UInt32 = 4
  private static let payloadMask: UInt32 = 0x00FF_FFFF
  private static let optionalChainPayload: UInt32 = 0
  private static let optionalWrapPayload: UInt32 = 1
  private static let optionalForcePayload: UInt32 = 2
  private static let outOfLineOffsetPayload: UInt32 = 0x007F_FFFF
  private static let settableFlag: UInt32 = 0x0040_0000
  private static let storedMutableFlag: UInt32 = 0x0080_0000
  private static let hasArgumentsFlag: UInt32 = 0x0008_0000
  private static let instantiatedFromExternalWithArgumentsFlag: UInt32 = 0x0000_0010

  private static func kind(of header: UInt32) -> UInt32 {
    (header & 0x7F00_0000) >> 24
  }

  /// A computed component's body starts at the next word: the header's 4
  /// bytes are followed by 4 of padding.
  private static var computedSkew: Int { MemoryLayout<Int>.size - 4 }

  /// The component the header and body describe, or `nil` for a kind an
  /// instantiated key path does not hold.
  private static func component(header: UInt32, body: UnsafeRawPointer, end: UnsafeRawPointer) -> Component? {
    let pointerSize = MemoryLayout<Int>.size
    switch kind(of: header) {
    case structTag, classTag:
      return .stored(isMutable: header & storedMutableFlag != 0)
    case optionalTag:
      switch header & payloadMask {
      case optionalChainPayload: return .optionalChain
      case optionalWrapPayload: return .optionalWrap
      case optionalForcePayload: return .optionalForce
      default: return nil
      }
    case computedTag:
      guard body + computedSkew + pointerSize <= end else { return nil }
      let identity = body.load(fromByteOffset: computedSkew, as: UInt.self)
      guard header & hasArgumentsFlag != 0 else {
        return .computed(identity: identity, argumentSize: 0, leadingInt: nil)
      }
      // The identity and the getter, the setter when settable, then the
      // arguments' size and witnesses, then the arguments.
      var argumentsHeader = computedSkew + 2 * pointerSize
      if header & settableFlag != 0 { argumentsHeader += pointerSize }
      var arguments = argumentsHeader + 2 * pointerSize
      if header & instantiatedFromExternalWithArgumentsFlag != 0 { arguments += pointerSize }
      guard body + argumentsHeader + pointerSize <= end else { return nil }
      let argumentSize = body.load(fromByteOffset: argumentsHeader, as: Int.self)
      let hasLeadingInt = argumentSize >= pointerSize && body + arguments + pointerSize <= end
      return .computed(
        identity: identity,
        argumentSize: argumentSize,
        leadingInt: hasLeadingInt ? body.loadUnaligned(fromByteOffset: arguments, as: Int.self) : nil
      )
    default:
      return nil
    }
  }

  /// The size of a component's body after its 32-bit header, as the
  /// standard library's `RawKeyPathComponent.bodySize` computes it, or
  /// `nil` for a kind an instantiated key path does not hold.
  private static func bodySize(header: UInt32, body: UnsafeRawPointer, end: UnsafeRawPointer) -> Int? {
    let pointerSize = MemoryLayout<Int>.size
    switch kind(of: header) {
    case structTag, classTag:
      return header & outOfLineOffsetPayload == outOfLineOffsetPayload ? 4 : 0
    case optionalTag:
      return 0
    case computedTag:
      // Aligned to a word, then an identity and a getter, a setter when
      // settable, and, with arguments, their size, their witnesses and the
      // arguments.
      var total = computedSkew + 2 * pointerSize
      if header & settableFlag != 0 { total += pointerSize }
      guard header & hasArgumentsFlag != 0 else { return total }
      guard body + total + pointerSize <= end else { return nil }
      let argumentSize = body.load(fromByteOffset: total, as: Int.self)
      guard argumentSize >= 0 else { return nil }
      total += 2 * pointerSize + argumentSize
      if header & instantiatedFromExternalWithArgumentsFlag != 0 { total += pointerSize }
      return body + total <= end ? total : nil
    default:
      return nil
    }
  }
}
