/// A subscriber as a ``Downstream``.
///
/// Not API.
@usableFromInline
final class SubscriberDownstream<Target: Subscriber>: Downstream<Target.Input> where Target.Failure == Never {
  @usableFromInline let target: Target

  @usableFromInline
  init(_ target: Target) {
    self.target = target
  }

  @usableFromInline
  override func receive(_ value: Target.Input) -> Subscribers.Demand {
    target.receive(value)
  }

  @usableFromInline
  override func receiveFinished() {
    target.receive(completion: .finished)
  }
}
