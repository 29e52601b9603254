/// Makes a class observable key by key.
///
/// Every stored `var` becomes observable under its own name: its setter
/// announces each change to the object's registrar and its getter reports
/// reads to access tracking. The macro adds the registrar (one word), the
/// ``KeyValueObservable`` conformance and a key table in which each
/// observable property has a slot number and its string name.
///
/// ```swift
/// @KeyValueObservable
/// final class Person {
///     var name = ""                        // observable, key "name"
///     var age = 0 { didSet { print("birthday") } }  // observers keep working
///     @KeyValueIgnored var cache = 0       // not observable, no overhead
///     let id = 1                           // constants are never observable
///     var summary: String { "\(name), \(age)" }
/// }
/// ```
///
/// Left alone: `let` constants, computed properties, `static` and `lazy`
/// properties, and properties marked ``KeyValueIgnored()``. `weak` and
/// `unowned` properties are observable and keep their ownership. Properties
/// that cannot be rewritten (property-wrapped, several bound in one
/// declaration, declared inside `#if`) are diagnosed.
///
/// Works on final and non-final classes, generic classes, and subclasses:
/// mark a subclass of an observable class too, and it adds its own keys after
/// those of its superclass.
///
/// > Important: Only classes can be observable. Applying the macro to a
/// > struct, enum, actor or protocol is a compile-time error.
@attached(
  member,
  conformances: KeyValueObservable,
  names: named(_$kvoRegistrar), named(_$kvoObservedStorage), named(_$kvoStorage),
  named(_$kvoKeyCount), named(_$kvoKeys), named(_$kvoSlot), named(_$kvoKeyPath),
  named(_$kvoObservationRegistrar), named(_$kvoObservationEvent), named(_$kvoObservedMutation),
  named(_$kvoMutationAsEvents), named(CodingKeys), named(encode), named(value), named(setValue),
  named(willChangeValue), named(didChangeValue), named(withChange), named(addObserver),
  prefixed(_$kvoFirstSlot_), prefixed(_$kvoKeys_)
)
@attached(memberAttribute)
@attached(extension, conformances: KeyValueObservable)
public macro KeyValueObservable() =
  #externalMacro(module: "KeyValueObservingMacros", type: "KeyValueObservableMacro")

/// Leaves a stored property of a ``KeyValueObservable()`` class unobservable.
///
/// The property keeps plain storage: no key, no notification, no cost.
///
/// ```swift
/// @KeyValueObservable
/// final class Thumbnail {
///     var url = ""
///     @KeyValueIgnored var decodedPixels: [UInt8] = []
/// }
/// ```
@attached(accessor, names: named(willSet))
public macro KeyValueIgnored() =
  #externalMacro(module: "KeyValueObservingMacros", type: "KeyValueIgnoredMacro")

/// Rewrites one stored property so that it notifies; applied by
/// ``KeyValueObservable()`` to each observable property, with
/// `routesMutations: true` in a class that declares `Observable` and its
/// own `withMutation(keyPath:_:)`, which the setter then goes through. Not
/// API: don't write it yourself.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro _KeyValueObservableProperty(slot: Int, routesMutations: Bool = false) =
  #externalMacro(module: "KeyValueObservingMacros", type: "KeyValueObservablePropertyMacro")
