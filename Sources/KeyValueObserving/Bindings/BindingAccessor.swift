/// What a binding asks of its accessor: the closure, made where `bind` is
/// called, that holds the binding's two key paths and is their only user.
///
/// A key path applied at run time is a call into the runtime that costs
/// about ten times an observed write. A key path *literal* captured by a
/// closure is specialised into it by the optimiser, which then reads and
/// writes the property directly — but only when the closure is the
/// literal's one use. So `bind` hands the key paths to nothing else: the
/// binding asks the accessor for them once (``keyPaths``), to register
/// and to describe itself, and for every write after that (``forward``,
/// ``backward``).
///
/// ```swift
/// let accessor: PropertyBinding<Person, Label, String, String?>.Accessor = { access, person, label, equality in
///     switch access {
///     case .keyPaths: .keyPaths(source: \Person.name, target: \Label.text)
///     case .forward: .written((\Label.text).bindingWrite(person.name, to: label, equality: equality.target, verifying: false))
///     case .backward: .written(.unchanged)
///     }
/// }
/// ```
@usableFromInline
enum BindingAccess {
  /// Hand over the two key paths.
  case keyPaths
  /// Read the source, convert, write the target.
  case forward
  /// Both ways: read the target, convert, write the source.
  case backward
}

/// What a binding's accessor answers.
@usableFromInline
enum BindingAccessResult {
  case keyPaths(source: AnyKeyPath, target: AnyKeyPath)
  case written(BoundWrite)

  /// The write's outcome; `.unchanged` for an answer that is not one.
  @inlinable
  var write: BoundWrite {
    if case .written(let outcome) = self { return outcome }
    return .unchanged
  }
}

/// The `Equatable` conformances of a binding's two value types, where
/// they have one, found once when the binding is made.
@usableFromInline
struct BindingEqualities {
  @usableFromInline let source: (any Equatable.Type)?
  @usableFromInline let target: (any Equatable.Type)?

  @inlinable
  init<SourceValue, TargetValue>(_ source: SourceValue.Type, _ target: TargetValue.Type) {
    self.source = source as? any Equatable.Type
    self.target = target as? any Equatable.Type
  }
}
