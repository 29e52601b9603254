/// Elements in order, kept in chunks that never move: appending one moves
/// none kept before. What an undo stack keeps its changes in
/// (``UndoSteps``).
///
/// One array of changes copied them all each time it grew, about 280
/// instructions a change at 128 bytes each. A chunk holds a fixed number
/// of elements; a full one is followed by a new one.
///
/// Never copied: a copy would share the chunks. It is moved (``take()``).
struct Chunked<Element> {
  /// Elements `start..<end` of a chunk's slots are initialised.
  private struct Bounds {
    var start = 0
    var end = 0
  }

  private final class Chunk: ManagedBuffer<Bounds, Element> {
    deinit {
      _ = withUnsafeMutablePointers { bounds, elements in
        (elements + bounds.pointee.start).deinitialize(count: bounds.pointee.end - bounds.pointee.start)
      }
    }
  }

  /// A chunk holds 2⁶ elements: a slot's chunk and its place there are a
  /// shift and a mask (a slot is never negative).
  private static var chunkShift: Int { 6 }
  private static var chunkCapacity: Int { 1 &<< chunkShift }
  private static func chunk(of slot: Int) -> Int { slot &>> chunkShift }
  private static func place(of slot: Int) -> Int { slot & (chunkCapacity &- 1) }

  private var chunks: [Chunk] = [] {
    didSet { tail = chunks.last.map(Self.pointers) }
  }
  /// The last chunk's bounds and slots, which the chunks keep: appending
  /// through them retains nothing and asks no exclusivity check.
  private var tail: (bounds: UnsafeMutablePointer<Bounds>, elements: UnsafeMutablePointer<Element>)?
  /// How many slots of the first chunk are before the first element: the
  /// elements taken off the front.
  private var offset = 0
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// Adds `element` after the others.
  @inline(__always)
  mutating func append(_ element: consuming Element) {
    let slot = offset &+ count
    let index = Self.place(of: slot)
    if index == 0 && Self.chunk(of: slot) == chunks.count { addChunk() }
    // Moved in outside a closure, which cannot consume it.
    let tail = tail.unsafelyUnwrapped
    (tail.elements + index).initialize(to: element)
    tail.bounds.pointee.end = index &+ 1
    count &+= 1
  }

  /// Adds an empty chunk after the others: once every
  /// ``chunkCapacity`` elements, out of line.
  @inline(never)
  private mutating func addChunk() {
    let chunk = Chunk.create(minimumCapacity: Self.chunkCapacity) { _ in Bounds() }
    chunks.append(unsafeDowncast(chunk, to: Chunk.self))
  }

  private static func pointers(
    of chunk: Chunk
  ) -> (bounds: UnsafeMutablePointer<Bounds>, elements: UnsafeMutablePointer<Element>) {
    chunk.withUnsafeMutablePointers { ($0, $1) }
  }

  /// The element at `position`, counted from the first: one of the last
  /// chunk's read through ``tail``, with no retain, as the steps read
  /// their top step's start.
  @inline(__always)
  subscript(position: Int) -> Element {
    precondition(position >= 0 && position < count, "index out of range")
    let slot = offset &+ position
    let chunk = Self.chunk(of: slot)
    if chunk == chunks.count &- 1 { return tail.unsafelyUnwrapped.elements[Self.place(of: slot)] }
    return element(inChunk: chunk, at: Self.place(of: slot))
  }

  /// An element of a chunk before the last: out of line.
  @inline(never)
  private func element(inChunk chunk: Int, at index: Int) -> Element {
    chunks[chunk].withUnsafeMutablePointerToElements { $0[index] }
  }

  /// The last element.
  var last: Element? { isEmpty ? nil : self[count - 1] }

  /// Takes the last element off.
  mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast() of no elements")
    let slot = offset + count - 1
    let element = chunks[Self.chunk(of: slot)].withUnsafeMutablePointers { bounds, elements in
      bounds.pointee.end = Self.place(of: slot)
      return (elements + Self.place(of: slot)).move()
    }
    count -= 1
    dropEmptyChunks()
    return element
  }

  /// Takes the elements from `position` on off the end, in order.
  mutating func removeLast(from position: Int) -> [Element] {
    var taken: [Element] = []
    taken.reserveCapacity(count - position)
    for index in position..<count {
      let slot = offset + index
      chunks[Self.chunk(of: slot)].withUnsafeMutablePointers { bounds, elements in
        taken.append((elements + Self.place(of: slot)).move())
        bounds.pointee.end = min(bounds.pointee.end, Self.place(of: slot))
      }
    }
    count = position
    dropEmptyChunks()
    return taken
  }

  /// Takes the first `taken` elements off, in order.
  mutating func removeFirst(_ taken: Int) -> [Element] {
    var removed: [Element] = []
    removed.reserveCapacity(taken)
    for _ in 0..<taken {
      chunks[Self.chunk(of: offset)].withUnsafeMutablePointers { bounds, elements in
        removed.append((elements + Self.place(of: offset)).move())
        bounds.pointee.start = Self.place(of: offset) + 1
      }
      offset += 1
      count -= 1
    }
    dropEmptyChunks()
    return removed
  }

  /// Drops the chunks before the first element and after the last. They
  /// hold none, so releasing them runs no code but this type's.
  private mutating func dropEmptyChunks() {
    let needed = count == 0 ? 0 : Self.chunk(of: offset + count + Self.chunkCapacity - 1)
    if chunks.count > needed { chunks.removeLast(chunks.count - needed) }
    if count == 0 {
      offset = 0
      return
    }
    let emptyFront = Self.chunk(of: offset)
    if emptyFront > 0 {
      chunks.removeFirst(emptyFront)
      offset -= emptyFront * Self.chunkCapacity
    }
  }

  /// Empties the elements and returns them.
  mutating func take() -> Chunked {
    let taken = self
    self = Chunked()
    return taken
  }
}
