/// A registration of a binding that only ends it: the one that files it
/// in its host's storage (what its token names), and, one way to an
/// observable object, the one that tells it the target was freed.
final class BindingAnchor: _KeyValueRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let binding: any BindingIdentity & BindingEnding
  private let givenKeyDescription: String?

  init(_ binding: some BindingIdentity & BindingEnding, keyDescription: String? = nil) {
    self.binding = binding
    self.givenKeyDescription = keyDescription
    super.init(options: [], slot: Self.keyPathSlot)
  }

  override var keyDescription: String? { givenKeyDescription }

  override var anchorKeyPath: AnyKeyPath? { \ObservationHost.self }

  override var observerDescription: String { binding.description }

  override var observerSource: ObserverSource { .binding(binding) }

  override func registrationEnded() {
    binding.end()
  }
}

/// A binding's end, for its anchor.
protocol BindingEnding: AnyObject {
  func end()
}

extension PropertyBinding: BindingEnding {}
