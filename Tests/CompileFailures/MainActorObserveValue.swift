// A main-actor class whose observeValue is isolated cannot be a classic
// observer: the message Getting Started's "Common mistakes" quotes (the fix,
// a nonisolated observeValue, is in Control.swift).
import KeyValueObserving

@MainActor
final class Printer: KeyValueObserver {
  // expected-error: conformance of 'Printer' to protocol 'KeyValueObserver' crosses into main actor-isolated code and can cause data races
  func observeValue(
    forKeyPath keyPath: String, of object: AnyObject, change: [KeyValueChangeKey: Any], context: UnsafeMutableRawPointer?
  ) {}
}

// no other errors
