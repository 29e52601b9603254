import KeyValueObservingCombine
import Testing

@Suite("publisher(for:): the values of a key path, as Apple's KVO publisher sends them")
struct PublisherTests {
  @Test("by default: the value at subscription, then the new value after each assignment, equal ones included")
  func defaultOptions() {
    let profile = Profile(name: "Ada")
    let probe = ProbeSubscriber<String>()
    profile.publisher(for: \.name).subscribe(probe)
    profile.name = "Grace"
    profile.name = "Grace"
    #expect(probe.values == ["Ada", "Grace", "Grace"])
  }

  @Test("each option adds the values it names: .new after a change, .old and .prior the value before it")
  func eachOptionSends() {
    let profile = Profile(age: 1)
    let newOnly = ProbeSubscriber<Int>()
    let none = ProbeSubscriber<Int>()
    let oldOnly = ProbeSubscriber<Int>()
    let initialOnly = ProbeSubscriber<Int>()
    let oldAndNew = ProbeSubscriber<Int>()
    profile.publisher(for: \.age, options: .new).subscribe(newOnly)
    profile.publisher(for: \.age, options: []).subscribe(none)
    profile.publisher(for: \.age, options: .old).subscribe(oldOnly)
    profile.publisher(for: \.age, options: .initial).subscribe(initialOnly)
    profile.publisher(for: \.age, options: [.old, .new]).subscribe(oldAndNew)
    profile.age = 2
    profile.age = 3
    #expect(newOnly.values == [2, 3])
    #expect(none.values == [], "no option, nothing to send")
    #expect(oldOnly.values == [1, 2])
    #expect(initialOnly.values == [1], "the value at subscription, read once")
    #expect(oldAndNew.values == [1, 2, 2, 3], "the old value, then the new one, per change")
  }

  @Test(".prior sends the value before each change, just before the new one")
  func prior() {
    let profile = Profile(age: 1)
    let probe = ProbeSubscriber<Int>()
    let priorOnly = ProbeSubscriber<Int>()
    profile.publisher(for: \.age, options: [.initial, .prior, .new]).subscribe(probe)
    profile.publisher(for: \.age, options: .prior).subscribe(priorOnly)
    profile.age = 2
    profile.age = 3
    #expect(probe.values == [1, 1, 2, 2, 3])
    #expect(priorOnly.values == [1, 2], "without .new, only the values before")
  }

  @Test(".old sends a to-many change's whole value before it, after the change")
  func oldOfToMany() {
    let profile = Profile()
    let tags = ProbeSubscriber<[String]>()
    profile.publisher(for: \.tags, options: [.old, .new]).subscribe(tags)
    let proxy = profile.mutableArrayValue(for: \.tags)
    proxy.append("a")
    proxy.append(contentsOf: ["b", "c"])
    proxy.remove(at: 0)
    #expect(tags.values == [[], ["a"], ["a"], ["a", "b", "c"], ["a", "b", "c"], ["b", "c"]])
  }

  @Test("a computed key sends its own value when one of its dependencies changes")
  func computedKey() {
    let profile = Profile(name: "Ada", age: 36)
    let probe = ProbeSubscriber<String>()
    profile.publisher(for: \.summary, options: [.initial, .prior, .new]).subscribe(probe)
    profile.age = 37
    profile.name = "Grace"
    #expect(probe.values == ["Ada, 36", "Ada, 36", "Ada, 37", "Ada, 37", "Grace, 37"])
  }

  @Test("a chain sends when its leaf changes and when a link is replaced; the old link is let go")
  func chain() {
    let profile = Profile()
    let oslo = Place(city: "Oslo")
    let probe = ProbeSubscriber<String?>()
    profile.publisher(for: \.home?.city).subscribe(probe)
    profile.home = oslo
    oslo.city = "Christiania"
    profile.home = Place(city: "Bergen")
    oslo.city = "Oslo"
    #expect(probe.values == [nil, "Oslo", "Christiania", "Bergen"])
    #expect(oslo.observationInfo.isEmpty)
  }

  @Test("a to-many change sends the whole collection: array proxy, set proxy, and .prior before it")
  func toMany() {
    let profile = Profile()
    let tags = ProbeSubscriber<[String]>()
    let ids = ProbeSubscriber<Set<Int>>()
    profile.publisher(for: \.tags, options: [.initial, .prior, .new]).subscribe(tags)
    profile.publisher(for: \.ids, options: .new).subscribe(ids)
    let proxy = profile.mutableArrayValue(for: \.tags)
    proxy.append("a")
    proxy.append(contentsOf: ["b", "c"])
    proxy.remove(at: 0)
    profile.mutableSetValue(for: \.ids).formUnion([1, 2])
    profile.mutableSetValue(for: \.ids).remove(1)
    #expect(tags.values == [[], [], ["a"], ["a"], ["a", "b", "c"], ["a", "b", "c"], ["b", "c"]])
    #expect(ids.values == [[1, 2], [2]])
  }

  @Test("setValue(_:forKey:), a manual change and a direct in-place mutation each send once")
  func everyKindOfWrite() throws {
    let profile = Profile()
    let names = ProbeSubscriber<String>()
    let tags = ProbeSubscriber<[String]>()
    profile.publisher(for: \.name, options: .new).subscribe(names)
    profile.publisher(for: \.tags, options: .new).subscribe(tags)
    try profile.setValue("Ada", forKey: "name")
    profile.withChange(for: \.name) {}
    profile.tags.append("x")
    #expect(names.values == ["Ada", "Ada"])
    #expect(tags.values == [["x"]])
  }

  @Test("composes with Combine's operators")
  func operators() {
    let profile = Profile(age: 1)
    var seen: [String] = []
    let cancellable = profile.publisher(for: \.age)
      .removeDuplicates()
      .filter { $0.isMultiple(of: 2) == false }
      .map { "age \($0)" }
      .sink { seen.append($0) }
    profile.age = 1
    profile.age = 2
    profile.age = 3
    #expect(seen == ["age 1", "age 3"])
    cancellable.cancel()
  }

  @Test("each subscriber has an observation of its own, named in observationInfo")
  func observationInfo() {
    let profile = Profile()
    let first = profile.publisher(for: \.name).sink { _ in }
    let second = profile.publisher(for: \.summary).sink { _ in }
    let info = profile.observationInfo
    #expect(info.count == 2)
    #expect(info.allSatisfy { $0.observer.contains("publisher(for:)") })
    first.cancel()
    #expect(profile.observationInfo.count == 1)
    second.cancel()
  }

  @Test("publishers are equal when they name the same object, key path and options")
  func equality() {
    let profile = Profile()
    #expect(profile.publisher(for: \.name) == profile.publisher(for: \.name))
    #expect(profile.publisher(for: \.name) != profile.publisher(for: \.name, options: .new))
    #expect(profile.publisher(for: \.name) != Profile().publisher(for: \.name))
    #expect(
      profile.publisher(for: \.age, options: .new)
        == KeyValueObservingPublisher(object: profile, keyPath: \.age, options: .new)
    )
  }

  @Test("a main-actor model publishes too")
  @MainActor
  func mainActorModel() {
    let screen = Screen()
    var titles: [String] = []
    let cancellable = screen.publisher(for: \.title).sink { titles.append($0) }
    screen.title = "Settings"
    #expect(titles == ["Home", "Settings"])
    cancellable.cancel()
  }
}
