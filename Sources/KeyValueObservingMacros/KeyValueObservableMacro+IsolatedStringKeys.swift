import SwiftSyntax
import SwiftSyntaxBuilder

extension KeyValueObservableMacro {
  /// The string-key entry points as members of a class isolated to a global
  /// actor: they take the class's isolation, so that calling them from
  /// outside it does not compile (a typed key path there already does not).
  static func isolatedStringKeyMembers(access: String) -> [DeclSyntax] {
    let forward = "\(Names.module)._KeyValueIsolatedStringKeys"
    let error = "\(Names.module).KeyValueCodingError"
    return [
      """
      \(raw: access)final func value(forKey key: Swift.String) throws(\(raw: error)) -> Any? {
        try \(raw: forward).value(forKey: key, on: self)
      }
      """,
      """
      \(raw: access)final func value(forKeyPath keyPath: Swift.String) throws(\(raw: error)) -> Any? {
        try \(raw: forward).value(forKeyPath: keyPath, on: self)
      }
      """,
      """
      \(raw: access)final func setValue(_ value: Any?, forKey key: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).setValue(value, forKey: key, on: self)
      }
      """,
      """
      \(raw: access)final func setValue(_ value: Any?, forKeyPath keyPath: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).setValue(value, forKeyPath: keyPath, on: self)
      }
      """,
      """
      \(raw: access)final func willChangeValue(forKey key: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).willChangeValue(forKey: key, on: self)
      }
      """,
      """
      \(raw: access)final func didChangeValue(forKey key: Swift.String) throws(\(raw: error)) {
        try \(raw: forward).didChangeValue(forKey: key, on: self)
      }
      """,
      """
      @discardableResult
      \(raw: access)final func withChange<Result>(
        forKey key: Swift.String,
        _ body: () throws(\(raw: error)) -> Result
      ) throws(\(raw: error)) -> Result {
        try \(raw: forward).withChange(forKey: key, on: self, body)
      }
      """,
      """
      @available(*, deprecated, message: "write a throwing body '() throws(KeyValueCodingError) in' to call the typed form; handle other errors inside it")
      @_disfavoredOverload
      @discardableResult
      \(raw: access)final func withChange<Result>(forKey key: Swift.String, _ body: () throws -> Result) throws -> Result {
        try \(raw: forward).withChange(forKey: key, on: self, body)
      }
      """,
      """
      \(raw: access)final func addObserver(
        _ observer: any \(raw: Names.module).KeyValueObserver,
        forKeyPath keyPath: Swift.String,
        options: \(raw: Names.module).KeyValueObservingOptions = [],
        context: Swift.UnsafeMutableRawPointer? = nil,
        fileID: Swift.StaticString = #fileID,
        line: Swift.UInt = #line
      ) throws(\(raw: error)) {
        try \(raw: forward).addObserver(observer, forKeyPath: keyPath, options: options, context: context, on: self, fileID: fileID, line: line)
      }
      """,
    ]
  }
}
