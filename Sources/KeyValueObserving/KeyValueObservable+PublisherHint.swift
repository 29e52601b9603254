// `publisher(for:)` where only the core is imported: a compile-time error
// that names the product and the import, instead of "has no member".

extension KeyValueObservable {
  /// Says, at compile time, where `publisher(for:options:)` is: in the
  /// `KeyValueObservingCombine` product. Where that module is imported its
  /// own `publisher(for:options:)` is the one chosen, as an available
  /// declaration always is over an unavailable one.
  ///
  /// It returns a type with the operators people chain after it
  /// (``_KeyValuePublisherHint``), so that a call followed by `.sink`,
  /// `.map` or `.assign` fails with this message too, not with "has no
  /// member".
  ///
  /// ```swift
  /// import KeyValueObserving
  /// person.publisher(for: \.name)  // error: publisher(for:) is in KeyValueObservingCombine…
  /// person.publisher(for: \.name).sink { print($0) }  // the same error
  /// ```
  @available(
    *,
    unavailable,
    message: "publisher(for:) is in KeyValueObservingCombine: add that product to the target's dependencies and import KeyValueObservingCombine"
  )
  public func publisher<Value>(
    for keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [.initial, .new]
  ) -> _KeyValuePublisherHint<Value> {
    _KeyValuePublisherHint()
  }
}
