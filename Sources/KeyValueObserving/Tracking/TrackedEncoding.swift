/// What the `encode(to:)` that `@KeyValueObservable` writes for a
/// `Codable` class calls for each property: the encoding the synthesized
/// conformance makes of it. An optional is encoded only when it holds a
/// value, as synthesis does for a property of optional type; the
/// overload the compiler picks from the property's type says which.
///
/// The expansion reports the read of each observable property itself,
/// as the property's getter does, before this call.
///
/// Not API.
public enum _KeyValueEncoding {
  /// Encodes `value` under `key`.
  ///
  /// ```swift
  /// try _KeyValueEncoding.encode(self._title, forKey: ._title, to: &container)
  /// ```
  @inlinable
  public static func encode<Key: CodingKey>(
    _ value: some Encodable,
    forKey key: Key,
    to container: inout KeyedEncodingContainer<Key>
  ) throws {
    try container.encode(value, forKey: key)
  }

  /// Encodes `value` under `key` when it is not `nil`, and nothing when it
  /// is.
  ///
  /// ```swift
  /// try _KeyValueEncoding.encode(self._note, forKey: ._note, to: &container)
  /// ```
  @inlinable
  public static func encode<Key: CodingKey, Value: Encodable>(
    _ value: Value?,
    forKey key: Key,
    to container: inout KeyedEncodingContainer<Key>
  ) throws {
    try container.encodeIfPresent(value, forKey: key)
  }
}
