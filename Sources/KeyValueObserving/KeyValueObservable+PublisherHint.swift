// `publisher(for:)` where only the core is imported: a compile-time error
// that names the product and the import, instead of "has no member".

extension KeyValueObservable {
  /// Says, at compile time, where `publisher(for:options:)` is: in the
  /// `KeyValueObservingCombine` product. Where that module is imported its
  /// own `publisher(for:options:)` is the one chosen, as an available
  /// declaration always is over an unavailable one.
  ///
  /// ```swift
  /// import KeyValueObserving
  /// person.publisher(for: \.name)  // error: publisher(for:) is in KeyValueObservingCombine…
  /// ```
  @available(
    *,
    unavailable,
    message: "publisher(for:) is in KeyValueObservingCombine: add that product to the target's dependencies and import KeyValueObservingCombine"
  )
  public func publisher<Value>(
    for keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [.initial, .new]
  ) -> Never {
    fatalError("unavailable")
  }
}
