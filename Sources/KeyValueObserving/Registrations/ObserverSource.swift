public import Dispatch

/// Who a registration made through the library's own API observes for:
/// what ``KeyValueObservable/observationInfo`` names and what
/// ``KeyValueObservationGraph`` draws as the edge's start.
///
/// Each case holds at most one reference, so that it takes one word in
/// every hooked registration.
///
/// Not API; `package` so that the Combine module's subscriptions say who
/// they are.
@usableFromInline
package enum ObserverSource: @unchecked Sendable {
  // @unchecked Sendable: every payload is immutable or guards itself.

  /// A closure given to `observe`: described by the registration's types.
  case closure
  /// A ``KeyValueObservable/changes(for:options:bufferingPolicy:fileID:line:)`` sequence.
  case changesSequence
  /// A ``KeyValueObservable/values(for:includingDeallocation:bufferingPolicy:fileID:line:)`` sequence.
  case valuesSequence
  /// A `publisher(for:)` subscription.
  case publisher
  /// A closure called on a dispatch queue.
  case queue(DispatchQueue)
  /// A closure called on the main actor.
  case mainActor
  /// A closure observed with `withKeyValueObservation`, which observes
  /// what it reads.
  case trackedClosure
  /// A binding, of this object's key to another's, or another's to it.
  case binding(any BindingIdentity)
  /// A ``KVOController``.
  case controller(ControllerIdentity)
  /// A classic ``KeyValueObserver``, on a key that is not one stored
  /// property.
  case classic(ClassicObserverTarget)

  /// Who observes, in words; `closure` is the closure's own description.
  func description(closure: @autoclosure () -> String) -> String {
    switch self {
    case .closure: closure()
    case .changesSequence: "changes(for:) sequence"
    case .valuesSequence: "values(for:) sequence"
    case .publisher: "publisher(for:) subscription"
    case .queue(let queue): "closure on \(queue.label)"
    case .mainActor: "closure on the main actor"
    case .trackedClosure: "withKeyValueObservation closure"
    case .binding(let binding): binding.description
    case .controller(let controller): controller.description
    case .classic(let target): target.description
    }
  }
}
