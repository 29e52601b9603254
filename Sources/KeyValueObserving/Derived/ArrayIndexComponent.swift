/// Whether a key path reads an array element by position — `\.items[0]`,
/// `\.rows[2].title`, `\.items[1..<3]` — whose read stops the program once
/// the array no longer has that position: the one kind of key path whose
/// later re-reads, which an observation makes after every change, cannot be
/// made safe. `observe` refuses it (see `KeyValueObservable.register`).
///
/// Swift offers no API to list a key path's components, so this walks the
/// key path object's buffer as the standard library lays it out, by the
/// constants of the runtime's ABI header (`shims/KeyPath.h`): a subscript
/// is a computed component that carries arguments; what it is applied to is
/// the type recorded before it (the root for the first). A subscript that
/// returns an optional (a `[safe:]` subscript, a dictionary's) cannot stop
/// the program and is accepted. Every read stays inside the buffer; a
/// layout it does not recognise answers `false`, as before this check.
enum ArrayIndexComponent {
  /// Whether `keyPath`, from `root`, applies a non-optional subscript to an
  /// `Array`, `ContiguousArray` or `ArraySlice`.
  static func isPresent(in keyPath: AnyKeyPath, root: Any.Type) -> Bool {
    let pointerSize = MemoryLayout<Int>.size
    // The object: its header, `_kvcKeyPathStringPtr`, then the buffer:
    // a 32-bit header (size and flags), padded to a word, then components.
    let objectStart = UnsafeRawPointer(Unmanaged.passUnretained(keyPath).toOpaque())
    let bufferStart = objectStart + 2 * pointerSize + pointerSize
    let bufferHeader = bufferStart.load(as: UInt32.self)
    let size = Int(bufferHeader & 0x00FF_FFFF)
    var cursor = bufferStart + pointerSize
    let end = cursor + size
    var input: Any.Type = root
    while cursor + 4 <= end {
      let header = cursor.load(as: UInt32.self)
      cursor += 4
      let body = cursor
      guard let bodySize = bodySize(header: header, body: body, end: end) else { return false }
      cursor += bodySize
      // The type the component produces: recorded after it, or the key
      // path's value type after the last one.
      let output: Any.Type
      if cursor >= end {
        output = type(of: keyPath).valueType
      } else {
        cursor = cursor.alignedUp(for: Int.self)
        guard cursor + pointerSize <= end else { return false }
        output = unsafeBitCast(cursor.load(as: UnsafeRawPointer.self), to: Any.Type.self)
        cursor += pointerSize
      }
      let isSubscript = kind(of: header) == computedTag && header & hasArgumentsFlag != 0
      if isSubscript && input is any PositionallyIndexed.Type && !(output is any OptionalValue.Type) {
        return true
      }
      input = output
    }
    return false
  }

  // The runtime's constants (`shims/KeyPath.h`).
  private static let structTag: UInt32 = 1
  private static let computedTag: UInt32 = 2
  private static let classTag: UInt32 = 3
  private static let optionalTag: UInt32 = 4
  private static let outOfLineOffsetPayload: UInt32 = 0x007F_FFFF
  private static let settableFlag: UInt32 = 0x0040_0000
  private static let hasArgumentsFlag: UInt32 = 0x0008_0000
  private static let instantiatedFromExternalWithArgumentsFlag: UInt32 = 0x0000_0010

  private static func kind(of header: UInt32) -> UInt32 {
    (header & 0x7F00_0000) >> 24
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
      // Aligned to a word (the header's 4 bytes and 4 of padding), then an
      // identity and a getter, a setter when settable, and, with
      // arguments, their size, their witnesses and the arguments.
      let skew = pointerSize - 4
      var total = skew + 2 * pointerSize
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

/// The collections whose subscript by position stops the program outside
/// their bounds, and which an observed key path may index.
protocol PositionallyIndexed {}

extension Array: PositionallyIndexed {}
extension ContiguousArray: PositionallyIndexed {}
extension ArraySlice: PositionallyIndexed {}
