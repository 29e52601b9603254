/// A value as `Any?`, borrowed: what a registration that hears changes
/// boxed is handed (``_KeyValueErasedRegistration``), built where the
/// value's type is known.
///
/// A value that an `Any` holds inline (at most three words, and movable
/// bit by bit) is not copied: the box is the value's bits and its type,
/// valid while the value lives, and owns nothing, as a borrowed parameter
/// owns nothing. A receiver that keeps it copies it (`pointee`), and the
/// copy owns what it refers to. Any other value is boxed as `as Any`
/// boxes it, and the box is destroyed after the call.
///
/// Copying an `Int` into an `Any` and destroying it after cost a model
/// graph's write about 60 instructions; for a `String`, a retain and a
/// release more.
@usableFromInline
enum _KeyValueBorrowedAny {
  /// Calls `body` with `oldValue` and `newValue` as borrowed boxes.
  @inlinable @inline(__always)
  static func with<Value, Result>(
    _ oldValue: Value?,
    _ newValue: Value?,
    _ body: (_ oldValue: UnsafePointer<Any?>, _ newValue: UnsafePointer<Any?>) -> Result
  ) -> Result {
    // Unprotected: a stack protector cost 5 instructions a call, and the
    // buffer is written only here, at its size.
    _withUnprotectedUnsafeTemporaryAllocation(of: Any?.self, capacity: 2) { boxes in
      let old = boxes.baseAddress!
      let new = old + 1
      let isInline = isHeldInline(Value.self)
      box(oldValue, at: old, inline: isInline)
      box(newValue, at: new, inline: isInline)
      let result = body(old, new)
      if !isInline {
        old.deinitialize(count: 2)
      }
      return result
    }
  }

  /// Whether an `Any` holds a `Value` in its own three words. (The box
  /// of an existential then has the existential's type, where `as Any`
  /// opens it: casts, `type(of:)` and printing open it alike.)
  @inlinable @inline(__always)
  static func isHeldInline<Value>(_: Value.Type) -> Bool {
    MemoryLayout<Value>.size <= 3 * MemoryLayout<Int>.size
      && MemoryLayout<Value>.alignment <= MemoryLayout<Int>.alignment
      && _isBitwiseTakable(Value.self)
  }

  /// Puts `value` at `box`: its bits and its type where `inline`, boxed by
  /// `as Any` otherwise.
  @inlinable @inline(__always)
  static func box<Value>(_ value: Value?, at box: UnsafeMutablePointer<Any?>, inline: Bool) {
    guard inline else {
      box.initialize(to: value.map { $0 as Any })
      return
    }
    guard value != nil else {
      box.initialize(to: nil)
      return
    }
    let raw = UnsafeMutableRawPointer(box)
    // An optional's payload is at its start.
    _withUnprotectedUnsafePointer(to: value) { raw.copyMemory(from: $0, byteCount: MemoryLayout<Value>.size) }
    raw.storeBytes(
      of: unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self),
      toByteOffset: 3 * MemoryLayout<Int>.size,
      as: UnsafeRawPointer.self
    )
  }
}

extension UnsafePointer<Any?> {
  /// A copy of the borrowed box here, which owns what it refers to: read
  /// without the optional's generic code, which copied an `Int`'s box in
  /// about 100 instructions.
  @inline(__always)
  var copiedBox: Any? {
    // An `Any` is three words of value and its type, and `nil` is no type.
    guard UnsafeRawPointer(self).load(fromByteOffset: 3 * MemoryLayout<Int>.size, as: UInt.self) != 0 else { return nil }
    return UnsafeRawPointer(self).assumingMemoryBound(to: Any.self).pointee
  }
}
