/// Why a string key was refused.
///
/// Every API that takes a string key throws it instead of crashing; typed key
/// paths never throw.
///
/// ```swift
/// do {
///     try person.willChangeValue(forKey: "nmae")
/// } catch let error as KeyValueCodingError {
///     print(error)  // Person has no observable property "nmae"
/// }
/// ```
public enum KeyValueCodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The key, or a component of a key path, is empty.
  ///
  /// ```swift
  /// try person.didChangeValue(forKey: "")  // throws .emptyKey(keyPath: "", type: "Person")
  /// ```
  case emptyKey(keyPath: String, type: String)

  /// The type has no observable property with this name.
  ///
  /// ```swift
  /// try person.willChangeValue(forKey: "nmae")  // throws .unknownKey("nmae", type: "Person")
  /// ```
  case unknownKey(String, type: String)

  /// What went wrong, in a sentence.
  ///
  /// ```swift
  /// print(KeyValueCodingError.unknownKey("nmae", type: "Person"))
  /// // Person has no observable property "nmae"
  /// ```
  public var description: String {
    switch self {
    case .emptyKey(let keyPath, let type):
      keyPath.isEmpty ? "empty key for \(type)" : "empty component in key path \"\(keyPath)\" for \(type)"
    case .unknownKey(let key, let type):
      "\(type) has no observable property \"\(key)\""
    }
  }
}
