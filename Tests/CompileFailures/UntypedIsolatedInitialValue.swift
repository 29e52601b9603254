// compile-flags: -default-isolation MainActor
// In a module whose default isolation is the main actor, the macro cannot
// see that a class is isolated. An initial value that calls an isolated
// initializer, in a property that writes no type, is evaluated where the
// storage is: off the actor. Writing the type, or `@MainActor` on the
// class, compiles (Tests/KeyValueObservingMainActorTests, Workspace and
// Pane).
import KeyValueObserving

@KeyValueObservable
final class Selection {
  var index = 0
}

@KeyValueObservable
final class Workspace {
  var selection = Selection()
  // expected-error: main actor-isolated default value in a nonisolated(unsafe) context
}
// no other errors
