/// The `bind` calls that cannot work, each refused at compile time with a
/// message that names the form to write — instead of "no exact matches in
/// call to instance method 'bind'". Each is unavailable, and less specific
/// than the forms that work, so a call those accept never reaches one.
extension KeyValueObservable {
  /// An `Optional` bound one way to a property that is not optional.
  ///
  /// ```swift
  /// person.bind(\.nickname, to: label, \.plainText)  // error: … placeholder: …
  /// person.bind(\.nickname, to: label, \.plainText, placeholder: "—")  // compiles
  /// ```
  @available(
    *, unavailable,
    message: "the source is Optional and the target is not: say what nil writes with bind(_:to:_:placeholder:), or convert with bind(_:to:_:transform:)"
  )
  public func bind<Target: AnyObject, Value>(
    _ keyPath: KeyPath<Self, Value?>,
    to target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// Two properties of different types bound one way.
  ///
  /// ```swift
  /// settings.bind(\.volume, to: label, \.text)  // error: … transform: …
  /// settings.bind(\.volume, to: label, \.text) { "\($0) dB" }  // compiles
  /// ```
  @available(
    *, unavailable,
    message: "the two properties hold different types: convert with bind(_:to:_:transform:), e.g. bind(\\.count, to: label, \\.text) { \"\\($0)\" }"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    to target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// A binding that would write a property that cannot be written.
  ///
  /// ```swift
  /// settings.bind(\.volume, to: meter, \.peak)  // error: peak is a let
  /// ```
  @available(
    *, unavailable,
    message: "the target property cannot be written (a let, a get-only or private(set) property): bind to a var of the target"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    to target: Target,
    _ targetKeyPath: KeyPath<Target, TargetValue>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// An `Optional` bound both ways to a property that is not optional.
  ///
  /// ```swift
  /// profile.bind(\.nickname, twoWayTo: field, \.text, initialValueFrom: .source)  // error: … placeholder: …
  /// ```
  @available(
    *, unavailable,
    message: "this side is Optional and the target is not: give placeholder: (written for nil, read back as nil), or convert with transform:inverse:"
  )
  public func bind<Target: KeyValueObservable, Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value?>,
    twoWayTo target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, Value>,
    initialValueFrom: KeyValueBindingSide,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// A property that is not optional bound both ways to an `Optional`.
  ///
  /// ```swift
  /// field.bind(\.text, twoWayTo: profile, \.nickname, initialValueFrom: .target)  // error: … from the Optional side …
  /// ```
  @available(
    *, unavailable,
    message: "the target is Optional and this side is not: bind from the Optional side, target.bind(_:twoWayTo:_:placeholder:initialValueFrom:), or convert with transform:inverse:"
  )
  public func bind<Target: KeyValueObservable, Value>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value>,
    twoWayTo target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, Value?>,
    initialValueFrom: KeyValueBindingSide,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// Two properties of different types bound both ways.
  ///
  /// ```swift
  /// thermostat.bind(\.celsius, twoWayTo: field, \.text, initialValueFrom: .source)  // error: … transform:inverse: …
  /// ```
  @available(
    *, unavailable,
    message: "the two properties hold different types: convert both ways with bind(_:twoWayTo:_:initialValueFrom:transform:inverse:)"
  )
  public func bind<Target: KeyValueObservable, Value, TargetValue>(
    _ keyPath: ReferenceWritableKeyPath<Self, Value>,
    twoWayTo target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    initialValueFrom: KeyValueBindingSide,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// A two-way binding to an object whose class is not marked, or of a
  /// property that cannot be written.
  ///
  /// ```swift
  /// model.bind(\.title, twoWayTo: plainView, \.text, initialValueFrom: .source)  // error: … mark …
  /// ```
  @available(
    *, unavailable,
    message: "a two-way binding observes and writes both sides: both objects' classes must be marked @KeyValueObservable and both properties must be vars; bind one way with bind(_:to:_:) otherwise"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    twoWayTo target: Target,
    _ targetKeyPath: KeyPath<Target, TargetValue>,
    initialValueFrom: KeyValueBindingSide,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// `placeholder:` where the target does not hold the source's wrapped
  /// type: an `Int?` to a `String`, or a `String?` to a `String?`.
  ///
  /// ```swift
  /// counter.bind(\.count, to: label, \.text, placeholder: "-")  // error: … transform: …
  /// ```
  @available(
    *, unavailable,
    message: "placeholder: is written for nil into a target that holds the source's wrapped type (a String? to a String); for other types convert with bind(_:to:_:transform:), and bind to an Optional target without placeholder:"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value?>,
    to target: Target,
    _ targetKeyPath: ReferenceWritableKeyPath<Target, TargetValue>,
    placeholder: TargetValue,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// The two-way `placeholder:` form to an object whose class is not
  /// marked.
  ///
  /// ```swift
  /// profile.bind(\.nickname, twoWayTo: plainField, \.text, placeholder: "", initialValueFrom: .source)  // error
  /// ```
  @available(
    *, unavailable,
    message: "a two-way binding observes and writes both sides: both objects' classes must be marked @KeyValueObservable and both properties must be vars of the same wrapped type; bind one way with bind(_:to:_:placeholder:) otherwise"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value?>,
    twoWayTo target: Target,
    _ targetKeyPath: KeyPath<Target, TargetValue>,
    placeholder: TargetValue,
    initialValueFrom: KeyValueBindingSide,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }

  /// The two-way `transform:inverse:` form to an object whose class is
  /// not marked, or of a property that cannot be written.
  ///
  /// ```swift
  /// thermostat.bind(\.celsius, twoWayTo: plainField, \.text, initialValueFrom: .source,
  ///                 transform: { "\($0)" }, inverse: { Double($0) ?? 0 })  // error
  /// ```
  @available(
    *, unavailable,
    message: "a two-way binding observes and writes both sides: both objects' classes must be marked @KeyValueObservable and both properties must be vars; bind one way with bind(_:to:_:transform:) otherwise"
  )
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: KeyPath<Self, Value>,
    twoWayTo target: Target,
    _ targetKeyPath: KeyPath<Target, TargetValue>,
    initialValueFrom: KeyValueBindingSide,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    transform: @escaping (Value) -> TargetValue,
    inverse: @escaping (TargetValue) -> Value
  ) -> KeyValueObservation {
    fatalError("unavailable")
  }
}
