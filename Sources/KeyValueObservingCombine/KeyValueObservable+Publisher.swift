public import KeyValueObserving

extension KeyValueObservable {
  /// A publisher of the values of `keyPath`: Apple's
  /// `publisher(for:options:)` on `NSObject`, for every observable object.
  ///
  /// By default (`[.initial, .new]`) a subscriber gets the value now, then
  /// the new value after each change. Add `.prior` or `.old` for the value
  /// before each change too. See ``KeyValueObservingPublisher`` for demand,
  /// threads and cancellation.
  ///
  /// ```swift
  /// let cancellable = person.publisher(for: \.age)
  ///     .map { "\($0) years" }
  ///     .assign(to: \.caption, on: badge)  // badge is @KeyValueObservable too
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The value to publish: a stored or computed property, or a
  ///     chain through observable objects.
  ///   - options: Which values are sent; each option adds its own, as
  ///     <doc:UsingThePublisher> lists.
  ///   - fileID: Where the call is, named on the subscriptions' edges of
  ///     the observation graph in a debug build; Swift passes it for you.
  ///   - line: The line of the call, likewise.
  /// - Returns: A publisher that never fails, and completes only with
  ///   `.deallocation`, when the object is freed.
  @inlinable
  public func publisher<Value>(
    for keyPath: KeyPath<Self, Value>,
    options: KeyValueObservingOptions = [.initial, .new],
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservingPublisher<Self, Value> {
    KeyValueObservingPublisher(object: self, keyPath: keyPath, options: options, fileID: fileID, line: line)
  }
}
