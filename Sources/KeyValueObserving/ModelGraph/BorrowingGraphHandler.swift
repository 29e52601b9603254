/// How `observeGraph`'s handler is handed a change: a record that borrows
/// its parts, as a parameter does, so that making it retains nothing and
/// nothing is released after the call.
///
/// A Swift parameter is borrowed: the caller keeps what it refers to alive
/// for the call, and a callee that keeps the value copies it, retaining
/// its references then. The record here is such a borrow, built by hand:
/// a bitwise copy of parts that the caller owns for the call (the changed
/// object, held by the write under way; the values and positions, owned
/// by the node's `receive`). It is never destroyed. A handler that keeps
/// the change copies it, and the copy owns its object and values, as any
/// copy does (`GraphBorrowedChangeTests`).
///
/// Retaining the object and destroying the record after the call cost a
/// graph write about 120 instructions.
struct BorrowingGraphHandler {
  /// The handler, called with the address of the record: a
  /// `KeyValueGraphChange` is passed by address (its values are `Any`), so
  /// the handler's own entry takes the record's address as its argument.
  private let call: (UnsafeRawPointer) -> Void

  init(_ handler: @escaping (KeyValueGraphChange) -> Void) {
    // Cast as the field of a struct, which holds a closure as its type
    // says: a closure cast by itself is first converted to the form a
    // generic value takes, which passes the pointer by its address.
    call = unsafeBitCast(Handler(handler: handler), to: Entry.self).call
  }

  /// The handler as `observeGraph` takes it.
  private struct Handler {
    let handler: (KeyValueGraphChange) -> Void
  }

  /// The same closure, as its entry is called.
  private struct Entry {
    let call: (UnsafeRawPointer) -> Void
  }

  /// Calls the handler with a change of the key at `slot` of `object`, a
  /// `graphClass`, made of the parts given, which the caller keeps alive
  /// for the call.
  @inline(__always)
  func callAsFunction(
    _ object: AnyObject,
    slot: Int,
    in graphClass: GraphClass,
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>?,
    newValue: UnsafePointer<Any?>?,
    positions: IndexRanges?,
    isPrior: Bool
  ) {
    typealias Record = KeyValueGraphChange
    typealias Change = KeyValueObservedChange<Any>
    // Unprotected: a stack protector cost 5 instructions a change, and the
    // buffer is written only here, at the offsets of its parts.
    _withUnprotectedUnsafeTemporaryAllocation(byteCount: MemoryLayout<Record>.size, alignment: MemoryLayout<Record>.alignment) {
      let record = $0.baseAddress!
      // Each part at its offset, which an optimised build knows as a
      // constant.
      let change = MemoryLayout<Record>.offset(of: \Record.change)!
      record.storeBytes(
        of: graphClass.borrowedObservableBits(object), toByteOffset: MemoryLayout<Record>.offset(of: \Record.object)!,
        as: GraphClass.BorrowedClassExistential.self
      )
      record.storeBytes(
        of: GraphKeyReference.InternedBits(key: graphClass.key(at: slot)),
        toByteOffset: MemoryLayout<Record>.offset(of: \Record.keyReference)!, as: GraphKeyReference.InternedBits.self
      )
      record.storeBytes(of: kind, toByteOffset: change + MemoryLayout<Change>.offset(of: \Change.kind)!, as: KeyValueChange.self)
      copyBits(of: newValue, to: record + change + MemoryLayout<Change>.offset(of: \Change.newValue)!)
      copyBits(of: oldValue, to: record + change + MemoryLayout<Change>.offset(of: \Change.oldValue)!)
      copyBits(of: positions, to: record + change + MemoryLayout<Change>.offset(of: \Change.positions)!)
      record.storeBytes(of: isPrior, toByteOffset: change + MemoryLayout<Change>.offset(of: \Change.isPrior)!, as: Bool.self)
      call(UnsafeRawPointer(record))
      // Not deinitialised: the record owns nothing.
    }
  }
}

/// Copies the bytes of `value` to `destination`, retaining nothing: the
/// copy is valid while `value` lives, and is never to be destroyed.
@inline(__always)
private func copyBits<T>(of value: T, to destination: UnsafeMutableRawPointer) {
  withUnsafeBytes(of: value) { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
}

/// Copies the box at `box` to `destination`, retaining nothing, or puts
/// `nil` there when there is none.
@inline(__always)
private func copyBits(of box: UnsafePointer<Any?>?, to destination: UnsafeMutableRawPointer) {
  guard let box else {
    destination.initializeMemory(as: Any?.self, repeating: nil, count: 1)
    return
  }
  destination.copyMemory(from: box, byteCount: MemoryLayout<Any?>.size)
}
