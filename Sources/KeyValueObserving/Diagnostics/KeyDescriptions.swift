/// How messages name keys: as the user wrote them, and never at a length
/// that would bury the message.
extension KeyValueObservable {
  /// `keyPath` as its property's name (`summary`) when it names one
  /// property of this class, and Swift's description of it otherwise.
  static func describe(_ keyPath: AnyKeyPath) -> String {
    _$kvoName(for: keyPath) ?? "\(keyPath)"
  }
}

extension String {
  /// Whether `text` occurs in the string (`contains(_:)` on a string needs
  /// macOS 13 and iOS 16).
  func hasText(_ text: String) -> Bool {
    let haystack = Array(utf8)
    let needle = Array(text.utf8)
    guard needle.count <= haystack.count else { return false }
    return (0...haystack.count - needle.count).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
  }

  /// The string itself when it is short enough to quote in a message;
  /// otherwise its start, an ellipsis and its length.
  var abbreviated: String {
    let limit = 80
    guard utf8.count > limit else { return self }
    return "\(prefix(limit))… (\(count) characters)"
  }
}

extension Int {
  /// This many elements, as a message says it: "1 element", "3 elements".
  var elementCount: String {
    self == 1 ? "1 element" : "\(self) elements"
  }
}
