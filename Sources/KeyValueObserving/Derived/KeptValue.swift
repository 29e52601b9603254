/// The value a derived observation read last, kept for the old value of a
/// change no did reads it before: a coalesced run of a tracked value, and a
/// change an object on the path makes by being freed (see
/// ``KeyValueObservingOptions/deallocation``) — by then the freed link
/// reads `nil`, and the object that held the value is gone.
///
/// An observation that hears freed objects must not keep them alive by
/// keeping its value: it keeps an object weakly (once freed, there is no
/// old value to give), a value that holds no object (see
/// ``HoldsNoObject``) strongly, and nothing of any other value (a struct
/// or an array that may hold objects), whose freed change then carries no
/// old value. Any other observation keeps its value strongly.
///
/// Made only for an observation that asks for ``KeyValueObservingOptions/old``
/// and reads outside a did; every other observation pays one `nil` check
/// per change for it.
///
/// ```swift
/// let kept = KeptValue<String?>(weakly: true)
/// kept.keep("Ada")
/// kept.value  // Optional(Optional("Ada"))
/// ```
@usableFromInline
final class KeptValue<Value>: @unchecked Sendable {
  // @unchecked Sendable: what is kept is reached only under the lock.

  /// How a value is kept.
  @usableFromInline
  enum Mode {
    /// Strongly, as it is: it holds no object, or keeping one alive is
    /// allowed.
    case value
    /// An object weakly, any other value not at all.
    case objectWeakly
  }

  @usableFromInline
  struct Kept {
    /// The value, kept strongly.
    @usableFromInline var value: Value?
    /// The value's object, kept weakly.
    weak var object: AnyObject?
    var isObject = false

    init() {}
  }

  @usableFromInline let state = LockedState(Kept(), ownsCacheLines: false)
  @usableFromInline let mode: Mode

  /// Keeps values without keeping an object alive (`weakly`), for an
  /// observation that hears freed objects, or as they are.
  @usableFromInline
  init(weakly: Bool) {
    mode = !weakly || Value.self is any HoldsNoObject.Type || _isPOD(Value.self) ? .value : .objectWeakly
  }

  /// Keeps `value` in place of the last one, which is released after the
  /// lock: its deinit may be any code. Inlinable: kept at every change of
  /// an observation that keeps values, specialised where the change path
  /// is.
  @inlinable @inline(__always)
  func keep(_ value: Value) {
    guard mode == .value else { return keepObjectWeakly(value) }
    var replaced: Value? = value
    state.withLock { swap(&$0.value, &replaced) }
  }

  /// ``keep(_:)`` without keeping an object alive: an object weakly, a
  /// value that holds none (`nil`, a string in an `Any`) strongly, any
  /// other value not at all (forgetting the last one).
  @usableFromInline
  func keepObjectWeakly(_ value: Value) {
    var replaced = Kept()
    let flat = flattened(value)
    if let object = flat, type(of: object) is AnyObject.Type {
      replaced.object = object as AnyObject
      replaced.isObject = true
    } else if flat == nil || flat is any HoldsNoObject {
      replaced.value = value
    }
    state.withLock { swap(&$0, &replaced) }
  }

  /// The value kept last, if any: `nil` also when it was an object, freed
  /// since, or a value that may hold one, kept weakly.
  @usableFromInline
  var value: Value? {
    let (value, object, isObject) = state.withLock { ($0.value, $0.object, $0.isObject) }
    return isObject ? object.flatMap { $0 as? Value } : value
  }
}

/// A value that holds no object, which an observation that hears freed
/// objects keeps for its old value (see ``KeptValue``): strings, numbers
/// and their optionals and collections. Any value with no reference at
/// all (`_isPOD`: an `Int`, a struct of numbers, an enum without
/// payloads) is kept too, without conforming.
protocol HoldsNoObject {}

extension String: HoldsNoObject {}
extension Substring: HoldsNoObject {}
extension Character: HoldsNoObject {}
extension Optional: HoldsNoObject where Wrapped: HoldsNoObject {}
extension Array: HoldsNoObject where Element: HoldsNoObject {}
extension ContiguousArray: HoldsNoObject where Element: HoldsNoObject {}
extension ArraySlice: HoldsNoObject where Element: HoldsNoObject {}
extension Set: HoldsNoObject where Element: HoldsNoObject {}
extension Dictionary: HoldsNoObject where Key: HoldsNoObject, Value: HoldsNoObject {}
extension Bool: HoldsNoObject {}
extension Int: HoldsNoObject {}
extension Int8: HoldsNoObject {}
extension Int16: HoldsNoObject {}
extension Int32: HoldsNoObject {}
extension Int64: HoldsNoObject {}
extension UInt: HoldsNoObject {}
extension UInt8: HoldsNoObject {}
extension UInt16: HoldsNoObject {}
extension UInt32: HoldsNoObject {}
extension UInt64: HoldsNoObject {}
extension Float: HoldsNoObject {}
extension Double: HoldsNoObject {}
