import KeyValueObservingCombine
import Testing

@Suite("publisher(for:): cancellation, freed objects, no retain cycles")
struct PublisherLifetimeTests {
  @Test("cancelling removes the observation before cancel() returns; nothing is sent after it")
  func cancelRemovesObservation() {
    let profile = Profile()
    let probe = ProbeSubscriber<Int>()
    profile.publisher(for: \.age).subscribe(probe)
    profile.age = 1
    #expect(profile.observationInfo.count == 1)
    probe.cancel()
    #expect(profile.observationInfo.isEmpty)
    profile.age = 2
    #expect(probe.values == [0, 1])
    probe.cancel()  // a second cancel is harmless
  }

  @Test("a subscription is a publisher edge of the observation graph until it is cancelled")
  func graphShowsSubscription() {
    let profile = Profile()
    let probe = ProbeSubscriber<Int>()
    profile.publisher(for: \.age, options: .new).subscribe(probe); let line = #line
    let graph = KeyValueObservationGraph(from: [profile])
    #expect(graph.edges.map(\.kind) == [.publisher])
    #if DEBUG
      #expect(graph.edges.map(\.site) == ["KeyValueObservingCombineTests/PublisherLifetimeTests.swift:\(line)"])
    #else
      #expect(graph.edges.map(\.site) == [nil])
    #endif
    #expect(graph.nodes.last?.label == "publisher(for:) subscription #2")
    probe.cancel()
    #expect(KeyValueObservationGraph(from: [profile]).edges.isEmpty)
  }

  @Test("a cancellable that is dropped ends its observation at once")
  func droppedCancellable() {
    let profile = Profile()
    var count = 0
    _ = profile.publisher(for: \.summary).sink { _ in count += 1 }
    #expect(profile.observationInfo.isEmpty)
    profile.name = "Ada"
    #expect(count == 1, "only the initial value")
  }

  @Test("a key path through an array position is refused: the subscription ends at once, silently, as for a freed object")
  func arrayPositionRefused() {
    let profile = Profile()
    let completions = Counter()
    weak var subscriber: ProbeSubscriber<String>?
    let reported = Counter()
    KeyValueObservingDiagnostic.withHandler({ if $0.kind == .arrayIndexKeyPath { reported.increment() } }) {
      let probe = ProbeSubscriber<String>(completed: completions)
      subscriber = probe
      profile.publisher(for: \.tags[0]).subscribe(probe)
    }
    profile.tags = ["a"]
    profile.tags = []
    #expect(reported.count == 1)
    #expect(subscriber == nil, "the subscriber was released")
    #expect(completions.count == 0)
    #expect(profile.observationInfo.isEmpty)
  }

  @Test("a freed object ends its subscriptions silently: no completion, subscriber released")
  func freedObject() {
    let completions = Counter()
    weak var subscriber: ProbeSubscriber<String>?
    var profile: Profile? = Profile(name: "Ada")
    do {
      let probe = ProbeSubscriber<String>(completed: completions)
      subscriber = probe
      profile!.publisher(for: \.name).subscribe(probe)
      profile!.publisher(for: \.home?.city).subscribe(ProbeSubscriber<String?>(completed: completions))
      #expect(probe.values == ["Ada"])
    }
    #expect(subscriber != nil, "the subscription keeps its subscriber while it lasts")
    profile = nil
    #expect(subscriber == nil)
    #expect(completions.count == 0, "like Apple's, the publisher never completes")
  }

  @Test("a subscription does not keep its object alive; the publisher does, like Apple's")
  func objectLifetime() {
    weak var weakProfile: Profile?
    var cancellable: AnyCancellable?
    do {
      let profile = Profile()
      weakProfile = profile
      cancellable = profile.publisher(for: \.age).sink { _ in }
    }
    #expect(weakProfile == nil)
    cancellable?.cancel()

    var publisher: KeyValueObservingPublisher<Profile, Int>?
    do {
      let profile = Profile()
      weakProfile = profile
      publisher = profile.publisher(for: \.age)
    }
    #expect(weakProfile != nil)
    #expect(publisher?.object === weakProfile)
    publisher = nil
    #expect(weakProfile == nil)
  }

  @Test("no cycle between subscription, object and subscriber: all are freed after cancel")
  func noCycles() {
    weak var weakProfile: Profile?
    weak var weakSubscriber: ProbeSubscriber<[String]>?
    do {
      let profile = Profile()
      let probe = ProbeSubscriber<[String]>()
      weakProfile = profile
      weakSubscriber = probe
      // The subscriber's callback captures the object, the way a view model
      // that writes back to its model does.
      probe.onValue = { _ in _ = profile.name }
      profile.publisher(for: \.tags).subscribe(probe)
      profile.mutableArrayValue(for: \.tags).append("x")
      probe.cancel()
    }
    #expect(weakSubscriber == nil)
    #expect(weakProfile == nil)
  }

  @Test("cancelling from inside receive(_:) sends nothing more, even what waited")
  func cancelInsideReceive() {
    let profile = Profile(age: 0)
    let probe = ProbeSubscriber<Int>()
    probe.onValue = { age in
      if age == 1 {
        profile.age = 2  // handed over to this delivery, then dropped by the cancel
        probe.cancel()
      }
    }
    profile.publisher(for: \.age).subscribe(probe)
    profile.age = 1
    profile.age = 3
    #expect(probe.values == [0, 1])
    #expect(profile.observationInfo.isEmpty)
  }
}
