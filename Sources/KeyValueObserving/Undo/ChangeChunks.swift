/// The changes of an undo stack's steps, in order, kept in chunks that
/// never move: appending a change moves no change kept before.
///
/// One array of changes copied them all each time it grew, about 280
/// instructions a change at 128 bytes each. A chunk holds a fixed number
/// of changes; a full one is followed by a new one.
///
/// Never copied: a copy would share the chunks. It is moved (``take()``).
struct ChangeChunks {
  /// Changes `start..<end` of a chunk's slots are initialised.
  private struct Bounds {
    var start = 0
    var end = 0
  }

  private final class Chunk: ManagedBuffer<Bounds, RecordedChange> {
    deinit {
      _ = withUnsafeMutablePointers { bounds, changes in
        (changes + bounds.pointee.start).deinitialize(count: bounds.pointee.end - bounds.pointee.start)
      }
    }
  }

  private static var chunkCapacity: Int { 64 }

  private var chunks: [Chunk] = [] {
    didSet { tail = chunks.last.map(Self.pointers) }
  }
  /// The last chunk's bounds and slots, which the chunks keep: appending
  /// through them retains nothing and asks no exclusivity check.
  private var tail: (bounds: UnsafeMutablePointer<Bounds>, changes: UnsafeMutablePointer<RecordedChange>)?
  /// How many slots of the first chunk are before the first change: the
  /// changes taken off the front.
  private var offset = 0
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// Adds `change` after the others.
  mutating func append(_ change: consuming RecordedChange) {
    let slot = offset + count
    let index = slot % Self.chunkCapacity
    if index == 0 && slot == chunks.count * Self.chunkCapacity {
      let chunk = Chunk.create(minimumCapacity: Self.chunkCapacity) { _ in Bounds() }
      chunks.append(unsafeDowncast(chunk, to: Chunk.self))
    }
    // Moved in outside a closure, which cannot consume it.
    let tail = tail.unsafelyUnwrapped
    (tail.changes + index).initialize(to: change)
    tail.bounds.pointee.end = index + 1
    count += 1
  }

  private static func pointers(
    of chunk: Chunk
  ) -> (bounds: UnsafeMutablePointer<Bounds>, changes: UnsafeMutablePointer<RecordedChange>) {
    chunk.withUnsafeMutablePointers { ($0, $1) }
  }

  /// The change at `position`, counted from the first.
  subscript(position: Int) -> RecordedChange {
    let slot = offset + position
    return chunks[slot / Self.chunkCapacity].withUnsafeMutablePointerToElements { $0[slot % Self.chunkCapacity] }
  }

  /// The last change.
  var last: RecordedChange? { isEmpty ? nil : self[count - 1] }

  /// Takes the changes from `position` on off the end, in order.
  mutating func removeLast(from position: Int) -> [RecordedChange] {
    var taken: [RecordedChange] = []
    taken.reserveCapacity(count - position)
    for index in position..<count {
      let slot = offset + index
      chunks[slot / Self.chunkCapacity].withUnsafeMutablePointers { bounds, changes in
        taken.append((changes + slot % Self.chunkCapacity).move())
        bounds.pointee.end = min(bounds.pointee.end, slot % Self.chunkCapacity)
      }
    }
    count = position
    dropEmptyChunks()
    return taken
  }

  /// Takes the first `taken` changes off, in order.
  mutating func removeFirst(_ taken: Int) -> [RecordedChange] {
    var removed: [RecordedChange] = []
    removed.reserveCapacity(taken)
    for _ in 0..<taken {
      chunks[offset / Self.chunkCapacity].withUnsafeMutablePointers { bounds, changes in
        removed.append((changes + offset % Self.chunkCapacity).move())
        bounds.pointee.start = offset % Self.chunkCapacity + 1
      }
      offset += 1
      count -= 1
    }
    dropEmptyChunks()
    return removed
  }

  /// Drops the chunks before the first change and after the last. They
  /// hold no change, so releasing them runs no code but this type's.
  private mutating func dropEmptyChunks() {
    let needed = count == 0 ? 0 : (offset + count + Self.chunkCapacity - 1) / Self.chunkCapacity
    if chunks.count > needed { chunks.removeLast(chunks.count - needed) }
    if count == 0 {
      offset = 0
      return
    }
    let emptyFront = offset / Self.chunkCapacity
    if emptyFront > 0 {
      chunks.removeFirst(emptyFront)
      offset -= emptyFront * Self.chunkCapacity
    }
  }

  /// Empties the changes and returns them.
  mutating func take() -> ChangeChunks {
    let taken = self
    self = ChangeChunks()
    return taken
  }
}
