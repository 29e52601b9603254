// String keys on a @MainActor class share its isolation, as typed key paths
// to its properties do: from a nonisolated context they do not compile.
import KeyValueObserving

@MainActor
@KeyValueObservable
final class ScreenModel {
  var title = ""
}

final class Logger: KeyValueObserver {
  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {}
}

nonisolated func fromAnywhere(_ screen: ScreenModel, logger: Logger) throws {
  try screen.setValue("t", forKey: "title")
  // expected-error: call to main actor-isolated instance method 'setValue(_:forKey:)' in a synchronous nonisolated context
  _ = try screen.value(forKey: "title")
  // expected-error: call to main actor-isolated instance method 'value(forKey:)' in a synchronous nonisolated context
  try screen.willChangeValue(forKey: "title")
  // expected-error: call to main actor-isolated instance method 'willChangeValue(forKey:)'
  try screen.addObserver(logger, forKeyPath: "title")
  // expected-error: call to main actor-isolated instance method 'addObserver(_:forKeyPath:options:context:fileID:line:)'
}
