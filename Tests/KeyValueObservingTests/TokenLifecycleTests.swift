import KeyValueObserving
import Testing

@Suite("Tokens: invalidate, deinit, and objects that go away")
struct TokenLifecycleTests {
  @Test("invalidate stops delivery and is idempotent")
  func invalidate() {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.age) { _, _ in counter.increment() }
    person.age = 1
    token.invalidate()
    token.invalidate()
    person.age = 2
    #expect(counter.count == 1)
    #expect(!token.isActive)
    #expect(person.observationInfo.isEmpty)
  }

  @Test("releasing the token ends the registration")
  func deinitInvalidates() {
    let person = Person()
    let counter = Counter()
    var token: KeyValueObservation? = person.observe(\.age) { _, _ in counter.increment() }
    person.age = 1
    #expect(token?.isActive == true)
    token = nil
    person.age = 2
    #expect(counter.count == 1)
    #expect(person.observationInfo.isEmpty)
  }

  @Test("invalidate inside the registration's own callback")
  func invalidateInsideOwnCallback() {
    let person = Person()
    let counter = Counter()
    let holder = TokenHolder()
    holder.token = person.observe(\.age) { _, _ in
      counter.increment()
      holder.token?.invalidate()
    }
    person.age = 1
    person.age = 2
    #expect(counter.count == 1)
  }

  @Test("releasing the token inside its own callback")
  func releaseInsideOwnCallback() {
    let person = Person()
    let counter = Counter()
    let holder = TokenHolder()
    holder.token = person.observe(\.age) { _, _ in
      counter.increment()
      holder.token = nil
    }
    person.age = 1
    person.age = 2
    #expect(counter.count == 1)
    #expect(holder.token == nil)
  }

  @Test("the library retains neither the observed object nor the token's owner")
  func selfObservationIsFreed() {
    weak var weakOwner: SelfObserver?
    let counter = Counter()
    do {
      let owner = SelfObserver(counter: counter)
      weakOwner = owner
      owner.value = 1
      #expect(counter.count == 1)
    }
    #expect(weakOwner == nil, "an object holding a token that observes itself must be freed")
  }

  @Test("an observed object freed while observed ends its registrations silently; tokens stay inert")
  func observedObjectFreed() {
    weak var weakPerson: Person?
    let counter = Counter()
    var token: KeyValueObservation?
    do {
      let person = Person()
      weakPerson = person
      token = person.observe(\.age) { _, _ in counter.increment() }
      person.age = 1
    }
    #expect(weakPerson == nil, "observing must not keep the object alive")
    #expect(token?.isActive == false)
    token?.invalidate()
    token?.invalidate()
    token = nil
    #expect(counter.count == 1)
  }

  @Test("a closure's captures are released when its registration ends")
  func capturesReleased() {
    let person = Person()
    weak var weakCapture: Marker?
    var token: KeyValueObservation?
    do {
      let marker = Marker()
      weakCapture = marker
      token = person.observe(\.age) { _, _ in _ = marker }
    }
    #expect(weakCapture != nil)
    token?.invalidate()
    #expect(weakCapture == nil, "invalidate releases the handler even while the token lives")
    _ = token
  }

  @Test("a closure that captures its token's owner is freed once the observed object goes away")
  func cycleBrokenByObjectDeinit() {
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
      var person: Person? = Person()
      owner.token = person!.observe(\.age) { _, _ in owner.seen += 1 }
      person!.age = 1
      #expect(owner.seen == 1)
      person = nil
    }
    #expect(weakOwner == nil, "owner → token → callback → owner must not outlive the observed object")
  }

  @Test("the registrar adds one word to an object")
  func registrarIsOneWord() {
    #expect(MemoryLayout<_KeyValueObservationRegistrar>.size == MemoryLayout<Int>.size)
  }

  @Test("objects nobody observed have no registrations and no storage")
  func unobservedObject() {
    let person = Person()
    person.age = 4
    #expect(person.observationInfo.isEmpty)
    #expect(person._$kvoObservedStorage == nil, "storage is created lazily, on the first observation")
    let token = person.observe(\.age) { _, _ in }
    #expect(person._$kvoObservedStorage != nil)
    _ = token
  }
}

/// An object whose token's callback captures it strongly.
final class Owner {
  var token: KeyValueObservation?
  var seen = 0
}

/// An object that observes itself through a token it stores.
@KeyValueObservable
final class SelfObserver {
  var value = 0
  @KeyValueIgnored private var token: KeyValueObservation?

  init(counter: Counter) {
    token = observe(\.value) { _, _ in counter.increment() }
  }
}
