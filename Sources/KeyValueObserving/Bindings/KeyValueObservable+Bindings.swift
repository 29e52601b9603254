extension KeyValueObservable {
  /// Binds a value of this object to a property of `target`, one way, as
  /// Combine's `assign(to:on:)` does: `target`'s property is set at once,
  /// and again after each change.
  ///
  /// ```swift
  /// let token = model.bind(\.title, to: \.text, on: titleLabel)  // label.text: String?
  /// model.title = "Inbox"  // titleLabel.text == "Inbox"
  /// ```
  ///
  /// The value is observed as ``observe(_:options:isolation:fileID:line:changeHandler:)``
  /// observes it — a stored property, a computed one, a chain — and
  /// written on the thread that changed it. `target` may be any object: a
  /// model, or a view. The binding holds neither object alive, and ends
  /// when its token is invalidated or released, when this object is
  /// freed, or when a change finds `target` freed (an observable `target`
  /// ends it as it is freed). A `@KeyValueObservable` object on the path
  /// that is freed — a `weak` link's — changes the value as a setter would,
  /// and the target is written with the value read again: a binding always
  /// observes with ``KeyValueObservingOptions/deallocation``, so that the
  /// target never shows a freed object's value.
  ///
  /// The binding takes the isolation of the code that makes it, as
  /// `observe`'s handler does. Made on the main actor, it writes a label's
  /// text there, synchronously, when the model changes there. In debug
  /// builds each write checks that it runs on that actor, and stops with a
  /// message naming the class and the key when it does not.
  ///
  /// - Parameters:
  ///   - keyPath: The value to bind, rooted at this object's type.
  ///   - targetKeyPath: The property of `target` to write.
  ///   - target: The object to write.
  ///   - coalesced: Whether the changes made in one job of the binding's
  ///     actor give one write, after that job
  ///     (<doc:ObservingClosures#Coalesced-runs>), rather than one each.
  ///   - isolation: The actor the binding's writes are isolated to: the
  ///     caller's, which Swift passes for you.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph``.
  ///   - line: The line of the call, likewise.
  /// - Returns: The token that keeps the binding alive.
  @inlinable @inline(__always)
  public func bind<Target: AnyObject, Value>(
    _ keyPath: __owned KeyPath<Self, Value>,
    to targetKeyPath: __owned ReferenceWritableKeyPath<Target, Value>,
    on target: Target,
    coalesced: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    bind(
      consume keyPath, to: consume targetKeyPath, on: target, coalesced: coalesced, isolation: isolation, fileID: fileID,
      line: line
    ) { $0 }
  }

  /// Binds a value of this object to an optional property of `target`,
  /// one way: a `String` to a label's `String?`.
  ///
  /// ```swift
  /// let token = model.bind(\.title, to: \.text, on: titleLabel)
  /// ```
  @inlinable @inline(__always)
  public func bind<Target: AnyObject, Value>(
    _ keyPath: __owned KeyPath<Self, Value>,
    to targetKeyPath: __owned ReferenceWritableKeyPath<Target, Value?>,
    on target: Target,
    coalesced: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    bind(
      consume keyPath, to: consume targetKeyPath, on: target, coalesced: coalesced, isolation: isolation, fileID: fileID,
      line: line
    ) { $0 }
  }

  /// Binds a value of this object to a property of `target`, one way,
  /// through `transform`.
  ///
  /// ```swift
  /// let token = download.bind(\.fraction, to: \.text, on: progressLabel) { "\(Int($0 * 100)) %" }
  /// let name = person.bind(\.nickname, to: \.plainText, on: nameLabel) { $0 ?? "—" }  // nil shows "—"
  /// ```
  ///
  /// `transform` runs where the write does: on the thread of the change,
  /// isolated as the binding is, to the actor of the code that makes it.
  @inlinable @inline(__always)
  public func bind<Target: AnyObject, Value, TargetValue>(
    _ keyPath: __owned KeyPath<Self, Value>,
    to targetKeyPath: __owned ReferenceWritableKeyPath<Target, TargetValue>,
    on target: Target,
    coalesced: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    transform: @escaping (Value) -> TargetValue
  ) -> KeyValueObservation {
    let site = RegistrationSite(fileID: fileID, line: line)
    // The key paths are consumed by the accessor (see `BindingAccessor`).
    let binding = PropertyBinding(
      source: self, target: target, twoWay: false,
      accessor: .oneWay(consume keyPath, consume targetKeyPath, transform: transform),
      isolation: isolationCheckedInDebugBuilds(isolation),
      coalescing: coalesced ? BindingCoalescing(isolation: isolation, site: site) : nil
    )
    return binding.start(
      source: self, site: site, initialValueFrom: .source,
      sourceChanged: { source, _ in binding.changed(.source, sourceObject: source) },
      observeTarget: nil
    )
  }

  /// Binds a property of this object and one of `target` both ways: each
  /// change of either is written to the other.
  ///
  /// ```swift
  /// let token = settings.bind(\.volume, twoWayTo: \.value, on: slider, initialValueFrom: .source)
  /// slider.value = 0.5   // settings.volume == 0.5
  /// settings.volume = 1  // slider.value == 1
  /// ```
  ///
  /// Which side's value both take at first is said at the call
  /// (`initialValueFrom`), not guessed. A write the binding makes is not
  /// sent back to the side it came from; an `Equatable` value the other
  /// side holds already is not written; a side that corrects the written
  /// value has its correction carried back, so both sides end equal.
  /// Each write is made on the thread that changed the other side: write
  /// the pair from one thread or actor at a time (a change on another
  /// thread while the binding writes is reported). The binding holds
  /// neither object alive and ends when its token is invalidated or
  /// released, or when either object is freed. A freed object on a
  /// side's path (the object of a `weak` property bound itself) is a
  /// change of that side, carried as one. A property bound to itself is
  /// refused, with an inactive token.
  ///
  /// The binding takes the isolation of the code that makes it, as
  /// `observe`'s handler does: made on the main actor, it writes both
  /// sides there. In debug builds each write checks that it runs on that
  /// actor, and stops with a message naming the class and the key that
  /// changed elsewhere.
  ///
  /// - Parameters:
  ///   - keyPath: This object's property.
  ///   - targetKeyPath: The other object's property.
  ///   - target: The other object, `@KeyValueObservable` too.
  ///   - initialValueFrom: The side whose value both take at once.
  ///   - coalesced: Whether the changes made in one job of the binding's
  ///     actor give one write, of the side changed last, after that job
  ///     (<doc:ObservingClosures#Coalesced-runs>), rather than one each.
  ///   - isolation: The actor the binding's writes are isolated to: the
  ///     caller's, which Swift passes for you.
  ///   - fileID: Where the call is, for ``KeyValueObservationGraph``.
  ///   - line: The line of the call, likewise.
  /// - Returns: The token that keeps the binding alive.
  @inlinable @inline(__always)
  public func bind<Target: KeyValueObservable, Value>(
    _ keyPath: __owned ReferenceWritableKeyPath<Self, Value>,
    twoWayTo targetKeyPath: __owned ReferenceWritableKeyPath<Target, Value>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    coalesced: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    bind(
      consume keyPath, twoWayTo: consume targetKeyPath, on: target, initialValueFrom: initialValueFrom,
      coalesced: coalesced, isolation: isolation, fileID: fileID, line: line, transform: { $0 }, inverse: { $0 }
    )
  }

  /// Binds an optional property of this object and one of `target` that
  /// is not optional, both ways: `nil` is written to `target` as
  /// `placeholder`, and `placeholder` comes back as `nil`.
  ///
  /// ```swift
  /// let token = profile.bind(\.nickname, twoWayTo: \.text, on: nicknameField, placeholder: "", initialValueFrom: .source)
  /// nicknameField.text = ""  // profile.nickname == nil
  /// ```
  @inlinable @inline(__always)
  public func bind<Target: KeyValueObservable, Value: Equatable>(
    _ keyPath: __owned ReferenceWritableKeyPath<Self, Value?>,
    twoWayTo targetKeyPath: __owned ReferenceWritableKeyPath<Target, Value>,
    on target: Target,
    placeholder: Value,
    initialValueFrom: KeyValueBindingSide,
    coalesced: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> KeyValueObservation {
    bind(
      consume keyPath, twoWayTo: consume targetKeyPath, on: target, initialValueFrom: initialValueFrom,
      coalesced: coalesced, isolation: isolation, fileID: fileID, line: line,
      transform: { $0 ?? placeholder }, inverse: { $0 == placeholder ? nil : $0 }
    )
  }

  /// Binds a property of this object and one of `target` both ways,
  /// through `transform` and its `inverse`.
  ///
  /// ```swift
  /// let token = thermostat.bind(\.celsius, twoWayTo: \.text, on: field, initialValueFrom: .source,
  ///                             transform: { "\($0)" }, inverse: { Double($0) ?? 0 })
  /// ```
  @inlinable @inline(__always)
  public func bind<Target: KeyValueObservable, Value, TargetValue>(
    _ keyPath: __owned ReferenceWritableKeyPath<Self, Value>,
    twoWayTo targetKeyPath: __owned ReferenceWritableKeyPath<Target, TargetValue>,
    on target: Target,
    initialValueFrom: KeyValueBindingSide,
    coalesced: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    transform: @escaping (Value) -> TargetValue,
    inverse: @escaping (TargetValue) -> Value
  ) -> KeyValueObservation {
    let site = RegistrationSite(fileID: fileID, line: line)
    // The key paths are consumed by the accessor (see `BindingAccessor`).
    let binding = PropertyBinding(
      source: self, target: target, twoWay: true,
      accessor: .twoWay(consume keyPath, consume targetKeyPath, transform: transform, inverse: inverse),
      isolation: isolationCheckedInDebugBuilds(isolation),
      coalescing: coalesced ? BindingCoalescing(isolation: isolation, site: site) : nil
    )
    return binding.start(
      source: self, site: site, initialValueFrom: initialValueFrom,
      sourceChanged: { source, _ in binding.changed(.source, sourceObject: source) },
      observeTarget: { target, targetKeyPath, hooks in
        target.register(targetKeyPath, options: .deallocation, hooks: hooks, site: site) { _, _ in
          binding.changed(.target)
        }
      }
    )
  }
}
