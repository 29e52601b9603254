import KeyValueObserving

/// One call a ``ChangeLog`` received.
struct LoggedChange: @unchecked Sendable {
  // @unchecked Sendable: the change dictionary holds the test's own values.
  let keyPath: String
  let object: AnyObject
  let change: [KeyValueChangeKey: Any]
  let context: UnsafeMutableRawPointer?

  var kind: KeyValueChange? { change[.kind] as? KeyValueChange }
  var isPrior: Bool { change[.notificationIsPrior] as? Bool ?? false }
  /// The keys present, by name, sorted: what the options put in.
  var keys: [String] { change.keys.map(\.rawValue).sorted() }
}

/// A classic observer that records every call.
final class ChangeLog: KeyValueObserver, @unchecked Sendable {
  // @unchecked Sendable: `calls` is a thread-safe recorder.
  let calls = Recorder<LoggedChange>()
  /// Run inside each call, after recording it.
  var onChange: ((LoggedChange) -> Void)?

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    let call = LoggedChange(keyPath: keyPath, object: object, change: change, context: context)
    calls.append(call)
    onChange?(call)
  }

  var count: Int { calls.count }
  var last: LoggedChange? { calls.elements.last }
}

/// A classic observer that counts its calls, from any thread, keeping
/// neither the changes nor the objects they came from.
final class CountingObserver: KeyValueObserver, Sendable {
  let count = Counter()

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    count.increment()
  }
}
