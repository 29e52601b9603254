import KeyValueObserving
import Testing

/// The README's quick start, checked: what it says it prints is what the
/// observer receives.
@KeyValueObservable
final class ReadmePerson {
  var name = ""
  var age = 0 {
    didSet { if age < 0 { age = 0 } }
  }
  var nickname: String?
  @KeyValueIgnored var cache = 0
  let id = 1
}

@Suite("README quick start")
struct ReadmeExampleTests {
  @Test("initial value, a change, and a clamped change reported once")
  func quickStart() {
    let person = ReadmePerson()
    let lines = Recorder<String>()
    let token = person.observe(\.age, options: [.initial, .old, .new]) { person, change in
      lines.append("\(change.oldValue as Any) → \(change.newValue as Any)")
    }
    #expect(lines.elements == ["nil → Optional(0)"])
    person.age = 36
    #expect(lines.elements.last == "Optional(0) → Optional(36)")
    person.age = -1
    #expect(lines.elements.last == "Optional(36) → Optional(0)")
    #expect(lines.count == 3)
    token.invalidate()
    person.age = 5
    #expect(lines.count == 3)
  }
}
