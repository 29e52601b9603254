public import Observation

/// Hands the events of one observable stored property of a class that Swift
/// Observation tracks to an `ObservationRegistrar`, with the property's own
/// key path (`\Sheet.title`), typed, as `@Observable` reports it.
///
/// The class's key table makes one per property, once, when it is built
/// (``make(for:)`` opens the key path's types at run time); every event
/// afterwards is a lookup by slot and one call. So a class that declares
/// `Observable` compiles no reporting code of its own — no switch over its
/// slots, no constant of key paths —, which is most of what made its
/// release build cost more than a plain `@KeyValueObservable` class's.
@usableFromInline
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
class ObservationReporter: @unchecked Sendable {
  // @unchecked Sendable: immutable once made.

  /// Hands `event` of the property to `registrar`, for `subject`, an object
  /// of the class (or of a subclass) whose property it is.
  @usableFromInline
  func report(_ event: _KeyValueObservationEvent, to registrar: ObservationRegistrar, of subject: AnyObject) {}

  /// The reporter of the property `keyPath` names, or `nil` when its root
  /// is not a class that Swift Observation tracks.
  static func make(for keyPath: AnyKeyPath) -> ObservationReporter? {
    let keyPathType = type(of: keyPath)
    guard let root = keyPathType.rootType as? any (KeyValueObservable & Observable).Type else { return nil }
    return make(for: keyPath, rootedAt: root, value: keyPathType.valueType)
  }

  /// The reporter of `keyPath`, whose types are `Root` and `Member`.
  private static func make<Root: KeyValueObservable & Observable, Member>(
    for keyPath: AnyKeyPath,
    rootedAt _: Root.Type,
    value _: Member.Type
  ) -> ObservationReporter? {
    guard let typed = keyPath as? KeyPath<Root, Member> else { return nil }
    return KeyPathReporter(typed)
  }
}

/// An ``ObservationReporter`` with the types of its key path.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private final class KeyPathReporter<Subject: KeyValueObservable & Observable, Member>: ObservationReporter,
  @unchecked Sendable
{
  // @unchecked Sendable: immutable.
  let keyPath: KeyPath<Subject, Member>

  init(_ keyPath: KeyPath<Subject, Member>) {
    self.keyPath = keyPath
  }

  override func report(_ event: _KeyValueObservationEvent, to registrar: ObservationRegistrar, of subject: AnyObject) {
    let subject = unsafeDowncast(subject, to: Subject.self)
    switch event {
    case .access: registrar.access(subject, keyPath: keyPath)
    case .willSet: registrar.willSet(subject, keyPath: keyPath)
    case .didSet: registrar.didSet(subject, keyPath: keyPath)
    }
  }
}
