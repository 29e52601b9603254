import Dispatch
import KeyValueObservingCombine
import Synchronization
import Testing

/// Records the values a `sink` closure is sent, from any thread, and whether
/// two calls ever overlapped.
final class SinkRecorder<Value: Sendable>: Sendable {
  private let received = Mutex<[Value]>([])
  private let inside = Atomic<Int>(0)
  private let overlaps = Atomic<Int>(0)

  func record(_ value: Value) {
    if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
      overlaps.add(1, ordering: .relaxed)
    }
    received.withLock { $0.append(value) }
    inside.subtract(1, ordering: .acquiringAndReleasing)
  }

  var values: [Value] { received.withLock { $0 } }
  var overlappingCalls: Int { overlaps.load(ordering: .relaxed) }
}

/// The values `keyPath` sends through `sink` and through Combine's own
/// `Subscribers.Sink` while `script` changes `profile`.
private func sentBothWays<Value: Equatable>(
  _ keyPath: KeyPath<Profile, Value>,
  options: KeyValueObservingOptions,
  script: (Profile) -> Void
) -> (sink: [Value], combine: [Value]) {
  let profile = Profile(name: "Ada", age: 36)
  var viaSink: [Value] = []
  var viaCombine: [Value] = []
  let publisher = profile.publisher(for: keyPath, options: options)
  let direct = publisher.sink { viaSink.append($0) }
  let subscriber = Subscribers.Sink<Value, Never>(receiveCompletion: { _ in }, receiveValue: { viaCombine.append($0) })
  publisher.subscribe(subscriber)
  script(profile)
  direct.cancel()
  subscriber.cancel()
  return (viaSink, viaCombine)
}

@Suite("publisher(for:).sink: Combine's sink, made without a subscriber object")
struct PublisherSinkTests {
  static let optionSets: [KeyValueObservingOptions] = [
    [.initial, .new], .new, [.initial, .prior, .new], [.prior, .new], [.old, .new], [.initial, .old, .new],
  ]

  @Test("sends what Combine's Subscribers.Sink is sent, for every option set and every kind of key", arguments: optionSets)
  func sameValuesAsCombinesSink(options: KeyValueObservingOptions) {
    // `.prior` and `.old` each add the value before a change.
    let before = !options.isDisjoint(with: [.prior, .old])
    let stored = sentBothWays(\.age, options: options) { profile in
      profile.age = 37
      profile.age = 37
      profile.withChange(for: \.age) {}
    }
    #expect(stored.sink == stored.combine)
    #expect(stored.sink.count == (options.contains(.initial) ? 1 : 0) + (before ? 6 : 3))

    let computed = sentBothWays(\.summary, options: options) { profile in
      profile.name = "Grace"
      profile.age = 85
    }
    #expect(computed.sink == computed.combine)
    #expect(computed.sink.last == "Grace, 85")

    let chain = sentBothWays(\.home?.city, options: options) { profile in
      profile.home = Place(city: "Oslo")
      profile.home?.city = "Bergen"
      profile.home = nil
    }
    #expect(chain.sink == chain.combine)
    #expect(chain.sink.suffix(before ? 6 : 3) == (before ? [nil, "Oslo", "Oslo", "Bergen", "Bergen", nil] : ["Oslo", "Bergen", nil]))

    let toMany = sentBothWays(\.tags, options: options) { profile in
      let tags = profile.mutableArrayValue(for: \.tags)
      tags.append("a")
      tags.append("b")
      tags.remove(at: 0)
    }
    #expect(toMany.sink == toMany.combine)
    #expect(toMany.sink.last == ["b"])
  }

  @Test("cancel() removes the observation before it returns, and releasing the cancellable does too")
  func cancelAndRelease() {
    let profile = Profile()
    let recorder = SinkRecorder<Int>()
    let cancellable = profile.publisher(for: \.age).sink { recorder.record($0) }
    profile.age = 1
    #expect(profile.observationInfo.count == 1)
    cancellable.cancel()
    #expect(profile.observationInfo.isEmpty)
    profile.age = 2
    #expect(recorder.values == [0, 1])
    cancellable.cancel()  // harmless

    var released: AnyCancellable? = profile.publisher(for: \.name).sink { _ in }
    #expect(profile.observationInfo.count == 1)
    released = nil
    #expect(profile.observationInfo.isEmpty)
    _ = released
  }

  @Test("cancelling from inside the closure sends nothing more, even a change made inside it")
  func cancelInsideClosure() {
    let profile = Profile()
    let recorder = SinkRecorder<Int>()
    var cancellable: AnyCancellable?
    cancellable = profile.publisher(for: \.age, options: .new).sink { age in
      recorder.record(age)
      if age == 1 {
        profile.age = 2
        cancellable?.cancel()
      }
    }
    profile.age = 1
    profile.age = 3
    #expect(recorder.values == [1])
    #expect(profile.observationInfo.isEmpty)
  }

  @Test("a freed object ends the sink silently and releases its closure; a later cancel is harmless")
  func freedObject() {
    final class Witness: Sendable {}
    weak var witness: Witness?
    var profile: Profile? = Profile(name: "Ada")
    var completions = 0
    let cancellable: AnyCancellable
    do {
      let captured = Witness()
      witness = captured
      cancellable = profile!.publisher(for: \.name).sink(
        receiveCompletion: { _ in completions += 1 },
        receiveValue: { _ in _ = captured }
      )
    }
    #expect(witness != nil, "the closure lives as long as the subscription")
    profile = nil
    #expect(witness == nil)
    #expect(completions == 0, "the publisher never completes")
    cancellable.cancel()
  }

  @Test("sink(receiveCompletion:receiveValue:) sends the values and never a completion")
  func withCompletion() {
    let profile = Profile()
    var ages: [Int] = []
    var completions = 0
    let cancellable = profile.publisher(for: \.age).sink(receiveCompletion: { _ in completions += 1 }) { ages.append($0) }
    profile.age = 5
    cancellable.cancel()
    profile.age = 6
    #expect(ages == [0, 5])
    #expect(completions == 0)
  }

  @Test("4 threads × 250 changes at once: every change sent, one call at a time")
  func concurrentChanges() {
    let profile = Profile(age: 7)
    let recorder = SinkRecorder<Int>()
    let cancellable = profile.publisher(for: \.age).sink { recorder.record($0) }
    // Changes announced by hand leave the value alone, so that four threads
    // can change the key at once without racing on the model's own data.
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<250 { profile.withChange(for: \.age) {} }
    }
    #expect(recorder.values.count == 1 + 1_000)
    #expect(recorder.values.allSatisfy { $0 == 7 })
    #expect(recorder.overlappingCalls == 0)
    cancellable.cancel()
  }

  @Test("sinks made and cancelled on three threads while a fourth announces changes: all removed")
  func sinkAndCancelWhileChanging() {
    let profile = Profile(age: 3)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      if thread == 0 {
        for _ in 0..<1_000 { profile.withChange(for: \.age) {} }
      } else {
        for _ in 0..<300 {
          let recorder = SinkRecorder<Int>()
          let cancellable = profile.publisher(for: \.age, options: .new).sink { recorder.record($0) }
          cancellable.cancel()
          #expect(recorder.overlappingCalls == 0)
        }
      }
    }
    #expect(profile.observationInfo.isEmpty)
  }
}
