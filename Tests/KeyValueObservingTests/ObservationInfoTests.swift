import KeyValueObserving
import Testing

@Suite("observationInfo lists the live registrations")
struct ObservationInfoTests {
  @Test("each registration appears with its key, options and observer, in slot then registration order")
  func listsRegistrations() {
    let person = Person()
    let first = person.observe(\.age, options: [.old, .new]) { _, _ in }
    let second = person.observe(\.name, options: .initial) { _, _ in }
    let third = person.observe(\.age) { _, _ in }
    #expect(
      person.observationInfo == [
        KeyValueObservationInfo(
          keyPath: "name",
          options: .initial,
          observer: "closure (Person, KeyValueObservedChange<String>)"
        ),
        KeyValueObservationInfo(
          keyPath: "age",
          options: [.old, .new],
          observer: "closure (Person, KeyValueObservedChange<Int>)"
        ),
        KeyValueObservationInfo(keyPath: "age", options: [], observer: "closure (Person, KeyValueObservedChange<Int>)"),
      ]
    )
    first.invalidate()
    #expect(person.observationInfo.map(\.keyPath) == ["name", "age"])
    #expect(person.observationInfo.map(\.options) == [.initial, []])
    _ = (second, third)
  }

  @Test("its description reads as key, options and observer")
  func description() {
    let person = Person()
    let token = person.observe(\.nickname, options: [.new, .old, .prior]) { _, _ in }
    #expect(
      person.observationInfo.map(\.description) == [
        "nickname [.new, .old, .prior] → closure (Person, KeyValueObservedChange<Optional<String>>)"
      ]
    )
    _ = token
  }

  @Test("an observed object that nobody observes any more lists nothing")
  func emptyAfterRelease() {
    let person = Person()
    var tokens = (0..<100).map { _ in person.observe(\.age) { _, _ in } }
    #expect(person.observationInfo.count == 100)
    tokens.removeAll()
    #expect(person.observationInfo.isEmpty)
  }

  @Test("a chain is listed once, under the key path as written, with what it depends on; nothing on the other links")
  func derivedObservation() {
    let resident = Resident()
    let address = Address(street: "Main")
    resident.address = address
    let token = resident.observe(\.address?.street, options: .new) { _, _ in }
    #expect(
      resident.observationInfo.map(\.description) == [
        "address?.street [.new] → closure (Resident, KeyValueObservedChange<Optional<String>>) ← address, Address.street"
      ]
    )
    #expect(resident.observationInfo.first?.dependencies == ["address", "Address.street"])
    #expect(address.observationInfo.isEmpty, "the library's own registration on the link is not a user's")
    token.invalidate()
    #expect(resident.observationInfo.isEmpty)
    #expect(allRegistrations(on: address).isEmpty)
  }

  @Test("a chain is described as written, whatever its links hold: a cycle, a loop to itself, a nil link")
  func chainDescribedAsWritten() {
    let x = Loop()
    let y = Loop()
    x.other = y
    y.other = x
    let cycle = x.observe(\.other?.other?.other?.v) { _, _ in }
    let loop = Loop()
    loop.other = loop
    let selfLoop = loop.observe(\.other?.other?.v) { _, _ in }
    let unlinked = Loop()
    let nilLink = unlinked.observe(\.other?.other?.v) { _, _ in }
    let forced = x.observe(\.other!.v) { _, _ in }
    #expect(Set(x.observationInfo.map(\.keyPath)) == ["other?.other?.other?.v", "other!.v"])
    #expect(loop.observationInfo.map(\.keyPath) == ["other?.other?.v"])
    #expect(unlinked.observationInfo.map(\.keyPath) == ["other?.other?.v"])
    // What it reads now follows it: the dependencies.
    #expect(x.observationInfo.first { $0.keyPath.hasPrefix("other?") }?.dependencies == ["other", "Loop.other", "Loop.v"])
    #expect(unlinked.observationInfo.first?.dependencies == ["other"])
    // And so does the graph.
    #expect(KeyValueObservationGraph(from: [loop]).edges.map { withoutSites($0.label) }.first == "other?.other?.v [] ← other, v (token)")
    unlinked.other = Loop()
    #expect(unlinked.observationInfo.map(\.keyPath) == ["other?.other?.v"])
    [cycle, selfLoop, nilLink, forced].forEach { $0.invalidate() }
    x.other = nil
    loop.other = nil
  }

  @Test("a key path through a property of a generic class is described by its names")
  func genericClassDescribed() {
    let holder = LoopHolder<Int>()
    let token = holder.observe(\.loop.other?.v) { _, _ in }
    #expect(holder.observationInfo.map(\.keyPath) == ["loop.other?.v"])
    _ = token
  }

  @Test("a computed key is listed under its own name, not as a key path that reads <computed 0x…>")
  func computedKeyName() {
    let person = Person()
    let tokens = (0..<3).map { _ in person.observe(\.summary) { _, _ in } }
    #expect(person.observationInfo.map(\.keyPath) == ["summary", "summary", "summary"], "one entry per token")
    #expect(person.observationInfo.first?.dependencies == ["name", "age"])
    _ = tokens
  }

  @Test("diagnostics name keys as written, and shorten a huge key")
  func readableDiagnostics() {
    let meter = Meter()
    let diagnostics = capturingDiagnostics {
      _ = meter.observe(\.reading) { _, _ in }
      meter.didChangeValue(for: \.calibration)
    }
    #expect(diagnostics.map(\.message).allSatisfy { !$0.contains("<computed") && !$0.contains("derived(") })
    #expect(diagnostics.first?.message.hasPrefix("observe(reading) on Meter never notifies:") == true)
    #expect(diagnostics.last?.message.hasPrefix("didChangeValue(for: calibration)") == true)
    let huge = String(repeating: "k", count: 1_000_000)
    let error = KeyValueCodingError.unknownKey(key: huge, type: "Person")
    #expect(error.description.count < 200)
    #expect(error.description.contains("1000000 characters"))
    let removal = capturingDiagnostics { Person().removeObserver(ChangeLog(), forKeyPath: huge) }
    #expect(removal.first.map { $0.message.count < 300 } == true)
  }
}

/// Links to another of its kind, or to itself.
@KeyValueObservable
final class Loop {
  var other: Loop?
  var v = 0
}

/// A generic class with a link.
@KeyValueObservable
final class LoopHolder<Tag> {
  var loop = Loop()
}
