import Dispatch
import Foundation
import KeyValueObserving
import Testing

/// A key's first registration is held without a list; the second makes
/// one. These tests walk a key through one, two, one and no registrations,
/// changing them from inside callbacks, where a change is reading them.
@Suite("A key with one registration, then more, then none")
struct LoneRegistrationTests {
  @Test("a lone registration gets the values and the prior notification it asked for")
  func loneOptions() {
    let person = Person()
    let log = Recorder<String>()
    let token = person.observe(\.age, options: [.old, .prior]) { _, change in
      log.append("\(change.isPrior ? "prior" : "did") old \(change.oldValue as Any) new \(change.newValue as Any)")
    }
    person.age = 4
    #expect(log.elements == ["prior old Optional(0) new nil", "did old Optional(0) new nil"])
    withExtendedLifetime(token) {}
  }

  @Test("a second observer added by the lone one's callback is called from the next change on, after it")
  func secondAddedDuringChange() {
    let person = Person()
    let log = Recorder<String>()
    let holder = TokenHolder()
    let first = person.observe(\.age, options: .new) { person, change in
      log.append("first \(change.newValue!)")
      if holder.token == nil {
        holder.token = person.observe(\.age, options: .new) { _, change in log.append("second \(change.newValue!)") }
      }
    }
    person.age = 1
    person.age = 2
    #expect(log.elements == ["first 1", "first 2", "second 2"])
    withExtendedLifetime(first) {}
  }

  @Test("the key goes from two registrations to one and none and back, each change reaching who is registered")
  func upAndDown() {
    let person = Person()
    let log = Recorder<String>()
    var a: KeyValueObservation? = person.observe(\.name, options: .new) { _, change in log.append("a \(change.newValue!)") }
    var b: KeyValueObservation? = person.observe(\.name, options: .old) { _, change in log.append("b \(change.oldValue!)") }
    person.name = "x"
    a = nil
    person.name = "y"
    b = nil
    person.name = "z"
    #expect(person.observationInfo.isEmpty)
    let c = person.observe(\.name, options: [.old, .new]) { _, change in
      log.append("c \(change.oldValue!)>\(change.newValue!)")
    }
    person.name = "w"
    #expect(log.elements == ["a x", "b ", "b x", "c z>w"])
    withExtendedLifetime((a, b, c)) {}
  }

  @Test("a lone registration released by another key's callback during its own change is not called again")
  func loneReleasedDuringItsChange() {
    let person = Person()
    let log = Recorder<String>()
    let holder = TokenHolder()
    // Registered first on `age`, so it runs before the lone `name` observer
    // of the change the callback makes.
    let trigger = person.observe(\.age) { person, _ in
      person.name = "changed"
    }
    holder.token = person.observe(\.name, options: [.prior, .new]) { _, change in
      log.append(change.isPrior ? "prior" : "did \(change.newValue!)")
      // Released between its prior and its did: the did is not delivered.
      holder.token = nil
    }
    person.age = 1
    person.name = "again"
    #expect(log.elements == ["prior"])
    withExtendedLifetime(trigger) {}
  }

  @Test("the last of two registrations, invalidated from the other's callback, is skipped")
  func secondInvalidatedByFirst() {
    let person = Person()
    let log = Recorder<String>()
    let holder = TokenHolder()
    let first = person.observe(\.age) { _, _ in
      log.append("first")
      holder.token?.invalidate()
    }
    holder.token = person.observe(\.age) { _, _ in log.append("second") }
    person.age = 1
    person.age = 2
    #expect(log.elements == ["first", "first"])
    withExtendedLifetime(first) {}
  }

  @Test("a lone registration that its prior callback turns into a list and removes still gets its did, skipped")
  func loneTurnedIntoListAndRemovedInPrior() {
    // The sequence that freed the registration a change was calling: the
    // second observation makes a list of the key, the invalidation removes
    // the first from it, and the did pass reads the first again.
    let person = Person()
    let log = Recorder<String>()
    let first = TokenHolder()
    let second = TokenHolder()
    first.token = person.observe(\.age, options: [.prior]) { person, change in
      log.append(change.isPrior ? "first prior" : "first did")
      guard change.isPrior else { return }
      second.token = person.observe(\.age) { _, _ in log.append("second did") }
      first.token?.invalidate()
      first.token = nil
    }
    person.age = 1
    person.age = 2
    #expect(log.elements == ["first prior", "second did"])
    #expect(person.observationInfo.count == 1)
  }

  @Test("a lone registration turned into a list and removed in its did callback is not read again")
  func loneTurnedIntoListAndRemovedInDid() {
    let person = Person()
    let log = Recorder<String>()
    let first = TokenHolder()
    let second = TokenHolder()
    first.token = person.observe(\.age) { person, _ in
      log.append("first")
      second.token = person.observe(\.age) { _, _ in log.append("second") }
      first.token = nil
      // A change of the same key inside the callback reads the new list.
      person.age += 10
    }
    person.age = 1
    person.age = 2
    #expect(log.elements == ["first", "second", "second"])
    #expect(person.age == 2)
  }

  @Test("the same sequence with the second observation added by another thread during the prior callback")
  func loneTurnedIntoListByAnotherThread() {
    // The other thread adds the second registration while the prior
    // callback waits for it; the callback then removes the first. Handed
    // over with semaphores, so the order is fixed and no test sleeps.
    for _ in 0..<50 {
      let person = Counters()
      let log = Recorder<String>()
      let first = TokenHolder()
      let second = TokenHolder()
      let added = DispatchSemaphore(value: 0)
      let addNow = DispatchSemaphore(value: 0)
      let adder = Thread {
        addNow.wait()
        second.token = person.observe(\.a) { _, _ in log.append("second did") }
        added.signal()
      }
      adder.start()
      first.token = person.observe(\.a, options: [.prior]) { _, change in
        log.append(change.isPrior ? "first prior" : "first did")
        guard change.isPrior else { return }
        addNow.signal()
        added.wait()
        first.token = nil
      }
      person.a = 1
      // Added during the change: called from the next one on.
      person.a = 2
      #expect(log.elements == ["first prior", "second did"])
      withExtendedLifetime(second) {}
    }
  }
}
