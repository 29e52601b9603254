/// A registration that hands the will and did of each change to a derived
/// observation instead of typed values.
@usableFromInline
class ForwardingRegistration: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let observer: DerivedObservationBase

  init(forwardingTo observer: DerivedObservationBase, options: KeyValueObservingOptions, slot: Int, walkedByChain: Bool = false) {
    self.observer = observer
    super.init(options: options, slot: slot, receiver: .forwarding, walkedByChain: walkedByChain)
  }

  final override func forwardChange(isPrior: Bool, from object: AnyObject?) {
    if isPrior {
      observer.dependencyWillChange(from: self, on: object)
    } else {
      observer.dependencyDidChange(from: self, on: object)
    }
  }
}
