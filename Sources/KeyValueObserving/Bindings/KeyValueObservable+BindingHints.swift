/// The `bind` calls that cannot work, each refused at compile time with a
/// message that names the form to write — instead of "no exact matches in
/// call to instance method 'bind'". Each is unavailable, and less specific
/// than the forms that work, so a call those accept never reaches one.
extension KeyValueObservable {
  /// An `Optional` bound one way to a property that is not optional.
  ///
  /// ```swift
  /// person.bind(\.nickname, to: \.plainText, on: label)  // error: … say what nil writes …
  /// person.bind(\.nickname, to: \.plainText, on: label) { $0 ?? "—" }  // compiles
  /// ```
  @available(
    *, unavailable,
    message: "the source is Optional and the target is not: say what nil writes with bind(_:to:on:transform:), e.g. bind(\\.nickname, to: \\.text, on: label) { $0 ?? \"—\" }"
  )
  public func bind<Target: AnyObject, Value>(
    _ keyPath: KeyPath<Self, Value?>,
    to targetKeyPath: ReferenceWritableKeyPath<Target, Value>,
    on target: Target,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// Two properties of different types bound one way.
  ///
  /// ```swift
  /// settings.bind(\.volume, to: \.text, on: label)  // error: … transform: …
  /// settings.bind(\.volume, to: \.text, on: label) { "\($0) dB" }  // compiles
  /// ```
  @available(
    *, unavailable,
    message: "the two properties hold different types: convert with bind(_:to:on:transform:), e.g. bind(\\.count, to: \\.text, on: label) { \"\\($0)\" }"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    to targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    on target: Target,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// A binding that would write a property that cannot be written.
  ///
  /// ```swift
  /// settings.bind(\.volume, to: \.peak, on: meter)  // error: peak is a let
  /// ```
  @available(
    *, unavailable,
    message: "the target property cannot be written (a let, a get-only or private(set) property): bind to a var of the target"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    to targetKeyPath: KeyPath<Target, TargetValue>,
    on target: Target,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// An `Optional` bound both ways to a property that is not optional.
  ///
  /// ```swift
  /// profile.bind(\.nickname, twoWayTo: \.text, on: field, initialValueFrom: .source)  // error: … placeholder: …
  /// ```
  @available(
    *, unavailable,
    message: "this side is Optional and the target is not: give placeholder: (written for nil, read back as nil), or convert with transform:inverse:"
  )
  public func bind<Target: KeyValueObservable, Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value?>,
    twoWayTo targetKeyPath: ReferenceWritableKeyPath<Target, Value>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// A property that is not optional bound both ways to an `Optional`.
  ///
  /// ```swift
  /// field.bind(\.text, twoWayTo: \.nickname, on: profile, initialValueFrom: .target)  // error: … from the Optional side …
  /// ```
  @available(
    *, unavailable,
    message: "the target is Optional and this side is not: bind from the Optional side, target.bind(_:twoWayTo:on:placeholder:initialValueFrom:), or convert with transform:inverse:"
  )
  public func bind<Target: KeyValueObservable, Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value>,
    twoWayTo targetKeyPath: ReferenceWritableKeyPath<Target, Value?>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// Two properties of different types bound both ways.
  ///
  /// ```swift
  /// thermostat.bind(\.celsius, twoWayTo: \.text, on: field, initialValueFrom: .source)  // error: … transform:inverse: …
  /// ```
  @available(
    *, unavailable,
    message: "the two properties hold different types: convert both ways with bind(_:twoWayTo:on:initialValueFrom:transform:inverse:)"
  )
  public func bind<Target: KeyValueObservable, Value, TargetValue>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value>,
    twoWayTo targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// A two-way binding to an object whose class is not marked, or of a
  /// property that cannot be written.
  ///
  /// ```swift
  /// model.bind(\.title, twoWayTo: \.text, on: plainView, initialValueFrom: .source)  // error: … mark …
  /// ```
  @available(
    *, unavailable,
    message: "a two-way binding observes and writes both sides: both objects' classes must be marked @KeyValueObservable and both properties must be vars; bind one way with bind(_:to:on:) otherwise"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    twoWayTo targetKeyPath: KeyPath<Target, TargetValue>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// The two-way `placeholder:` form to an object whose class is not
  /// marked.
  ///
  /// ```swift
  /// profile.bind(\.nickname, twoWayTo: \.text, on: plainField, placeholder: "", initialValueFrom: .source)  // error
  /// ```
  @available(
    *, unavailable,
    message: "a two-way binding observes and writes both sides: both objects' classes must be marked @KeyValueObservable and both properties must be vars of the same wrapped type; bind one way with bind(_:to:on:transform:) otherwise"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value?>,
    twoWayTo targetKeyPath: KeyPath<Target, TargetValue>,
    on target: Target,
    placeholder: TargetValue,
    initialValueFrom: KeyValueBindingSide,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// The two-way `transform:inverse:` form to an object whose class is
  /// not marked, or of a property that cannot be written.
  ///
  /// ```swift
  /// thermostat.bind(\.celsius, twoWayTo: \.text, on: plainField, initialValueFrom: .source,
  ///                 transform: { "\($0)" }, inverse: { Double($0) ?? 0 })  // error
  /// ```
  @available(
    *, unavailable,
    message: "a two-way binding observes and writes both sides: both objects' classes must be marked @KeyValueObservable and both properties must be vars; bind one way with bind(_:to:on:transform:) otherwise"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    twoWayTo targetKeyPath: KeyPath<Target, TargetValue>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    transform: @escaping (Value) -> TargetValue,
    inverse: @escaping (TargetValue) -> Value
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }
}
