/// What a registration asks to receive: which values a change record carries
/// and which extra notifications are sent.
///
/// The same four options as Apple's `NSKeyValueObservingOptions`:
///
/// - ``new``: the change carries the value after the change.
/// - ``old``: the change carries the value before the change.
/// - ``initial``: one notification is sent at once, before `observe` returns,
///   with kind ``KeyValueChange/setting`` (and the current value if ``new`` is
///   also given; never an old value).
/// - ``prior``: an extra notification is sent before each change, with
///   ``KeyValueObservedChange/isPrior`` set (and the old value if ``old`` is
///   also given; never a new value).
///
/// And one Apple's KVO does not have, off by default:
///
/// - ``deallocation``: an object on the observed path that is freed — the
///   object of a `weak` link, zeroed without a setter — is a change: the
///   value is read again (`nil` past the freed link) and notified, as
///   RxSwift's `observeWeakly` and ReactiveCocoa's `signal(forKeyPath:)`
///   do; async sequences and publishers finish when the observed object
///   is freed.
///
/// ```swift
/// let token = person.observe(\.name, options: [.old, .new]) { person, change in
///     print("name went from \(change.oldValue!) to \(change.newValue!)")
/// }
/// ```
public struct KeyValueObservingOptions: OptionSet, Sendable, Hashable {
  public let rawValue: Int

  /// Makes options from their raw bits.
  ///
  /// ```swift
  /// let both = KeyValueObservingOptions(rawValue: 0b11)  // [.new, .old]
  /// ```
  @inlinable
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// The change carries the new value.
  ///
  /// ```swift
  /// person.observe(\.age, options: .new) { _, change in print(change.newValue!) }
  /// ```
  @inlinable public static var new: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 1 << 0) }

  /// The change carries the old value.
  ///
  /// ```swift
  /// person.observe(\.age, options: .old) { _, change in print(change.oldValue!) }
  /// ```
  @inlinable public static var old: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 1 << 1) }

  /// One notification is delivered immediately, before `observe` returns.
  ///
  /// ```swift
  /// person.observe(\.age, options: [.initial, .new]) { _, change in
  ///     print(change.newValue!)  // prints the current age first
  /// }
  /// ```
  @inlinable public static var initial: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 1 << 2) }

  /// An extra notification is delivered before each change.
  ///
  /// ```swift
  /// person.observe(\.age, options: [.prior, .old]) { _, change in
  ///     if change.isPrior { print("about to change from \(change.oldValue!)") }
  /// }
  /// ```
  @inlinable public static var prior: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 1 << 3) }

  /// A freed object on the observed path is a change.
  ///
  /// ```swift
  /// @KeyValueObservable final class Cell { weak var item: Item?; var title = "" }
  ///
  /// let token = cell.observe(\.item?.name, options: [.old, .new, .deallocation]) { _, change in
  ///     print(change.oldValue!, "→", change.newValue!)
  /// }
  /// item = nil  // the last reference: prints Optional("Ada") → nil
  /// ```
  ///
  /// Without it, as in Apple's KVO, a `weak` link that turns `nil` changes
  /// nothing: no setter ran. What is heard, which old value comes, and how
  /// each form ends are in <doc:FreedObjectsAndWeakLinks>.
  @inlinable public static var deallocation: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 1 << 4) }
}

extension KeyValueObservingOptions: CustomStringConvertible {
  /// The options as Swift would spell them, for example `[.new, .old]`.
  ///
  /// ```swift
  /// print(KeyValueObservingOptions([.old, .new]))  // [.new, .old]
  /// ```
  public var description: String {
    let names: [(KeyValueObservingOptions, String)] = [
      (.new, ".new"), (.old, ".old"), (.initial, ".initial"), (.prior, ".prior"), (.deallocation, ".deallocation"),
    ]
    let present = names.filter { contains($0.0) }.map(\.1)
    return "[" + present.joined(separator: ", ") + "]"
  }
}
