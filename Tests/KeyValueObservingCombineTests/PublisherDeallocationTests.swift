import KeyValueObservingCombine
import Testing

/// A profile's weakly held friend, for links freed without a setter.
@KeyValueObservable
final class Acquaintance {
  weak var friend: Profile?
}

@Suite("publisher(for:) with .deallocation: freed links send nil, a freed object finishes")
struct PublisherDeallocationTests {
  @Test("a freed weak link sends the value read again, nil")
  func freedLinkSendsNil() {
    let acquaintance = Acquaintance()
    var friend: Profile? = Profile(name: "Ada")
    acquaintance.friend = friend
    let probe = ProbeSubscriber<String?>()
    acquaintance.publisher(for: \.friend?.name, options: [.initial, .new, .deallocation]).subscribe(probe)
    friend = nil
    #expect(probe.values == ["Ada", nil])
    probe.cancel()
  }

  @Test("the observed object freed sends .finished, only with the option")
  func finishesWhenFreed() {
    var profile: Profile? = Profile()
    let finished = Counter()
    let silent = Counter()
    let hearing = ProbeSubscriber<Int>(completed: finished)
    let deaf = ProbeSubscriber<Int>(completed: silent)
    profile!.publisher(for: \.age, options: [.new, .deallocation]).subscribe(hearing)
    profile!.publisher(for: \.age, options: .new).subscribe(deaf)
    profile!.age = 3
    profile = nil
    #expect(hearing.values == [3])
    #expect(finished.count == 1)
    #expect(silent.count == 0)
  }

  @Test("a cancelled subscription does not finish when the object is freed later")
  func cancelledDoesNotFinish() {
    var profile: Profile? = Profile()
    let finished = Counter()
    let probe = ProbeSubscriber<Int>(completed: finished)
    profile!.publisher(for: \.age, options: [.new, .deallocation]).subscribe(probe)
    probe.cancel()
    profile = nil
    #expect(finished.count == 0)
  }

  @Test("the two-closure sink hears the completion")
  func sinkCompletion() {
    var profile: Profile? = Profile()
    let completions = Counter()
    let cancellable = profile!.publisher(for: \.age, options: [.new, .deallocation]).sink(
      receiveCompletion: { _ in completions.increment() },
      receiveValue: { _ in }
    )
    profile = nil
    #expect(completions.count == 1)
    _ = cancellable
  }
}
