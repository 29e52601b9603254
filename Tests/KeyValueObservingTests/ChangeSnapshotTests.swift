@testable import KeyValueObserving
import Testing

@Suite("Change snapshots: what a change's registrations asked for")
struct ChangeSnapshotTests {
  @Test("the snapshot's literal bits are the options' own .old, .new and .prior, and the walked-by-chain bit")
  func bitsMatchTheOptions() {
    let options = UInt8(KeyValueObservingOptions([.old, .new, .prior]).rawValue)
    #expect(ChangeSnapshot.wantedOptions == options | _KeyValueRegistration.walkedByChainBit)
  }

  @Test("a lone registration's bits and a list's counts give the same wants", arguments: [
    KeyValueObservingOptions.old, .new, .prior, [.old, .new], [.new, .prior, .initial], [.deallocation, .old],
  ], [false, true])
  func wantsFromOptions(options: KeyValueObservingOptions, walkedByChain: Bool) {
    let registration = _KeyValueRegistration(options: options, slot: 0, receiver: .forwarding, walkedByChain: walkedByChain)
    var header = RegistrationListHeader()
    header.tally(registration, by: 1)
    let snapshot = ChangeSnapshot(
      holder: .passUnretained(registration), entries: nil, count: 1, record: nil, wants: registration.bits
    )
    #expect(snapshot.wantsOldValue == options.contains(.old))
    #expect(snapshot.wantsNewValue == options.contains(.new))
    #expect(snapshot.hasPrior == options.contains(.prior))
    #expect(snapshot.isWalkedByChain == walkedByChain)
    #expect(registration.receiver == .forwarding)
    #expect(header.wantedOptions == snapshot.wants)
    header.tally(registration, by: -1)
    #expect(header.wantedOptions == 0)
  }
}
