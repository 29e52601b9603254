@testable import KeyValueObserving
import Testing

@Suite("Change snapshots: what a change's registrations asked for")
struct ChangeSnapshotTests {
  @Test("the snapshot's literal bits are the options' own .old, .new and .prior")
  func bitsMatchTheOptions() {
    #expect(Int(ChangeSnapshot.wantedOptions) == KeyValueObservingOptions([.old, .new, .prior]).rawValue)
  }

  @Test("a lone registration's options and a list's counts give the same wants", arguments: [
    KeyValueObservingOptions.old, .new, .prior, [.old, .new], [.new, .prior, .initial], [.deallocation, .old],
  ])
  func wantsFromOptions(options: KeyValueObservingOptions) {
    let person = Person()
    let token = person.observe(\.age, options: options) { _, _ in }
    var header = RegistrationListHeader()
    header.tally(options, by: 1)
    let snapshot = ChangeSnapshot(
      holder: .passUnretained(person), entries: nil, count: 1, record: nil,
      wants: UInt8(truncatingIfNeeded: options.rawValue)
    )
    #expect(snapshot.wantsOldValue == options.contains(.old))
    #expect(snapshot.wantsNewValue == options.contains(.new))
    #expect(snapshot.hasPrior == options.contains(.prior))
    #expect(header.wantedOptions == snapshot.wants)
    token.invalidate()
  }
}
