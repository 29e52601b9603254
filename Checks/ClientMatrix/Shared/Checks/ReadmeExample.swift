// The README's first example, as a client in each configuration compiles
// it (its `print`s become records).
import KeyValueObserving
import Testing

@KeyValueObservable
final class Person {
  var name = ""
  var age = 0
  var summary: String { "\(name), \(age)" }  // its dependencies are found
}

@Suite("The README's first example")
struct ReadmeExample {
  @Test("observes a stored and a computed key")
  func firstExample() {
    let seen = Seen()
    let person = Person()
    let token = person.observe(\.age, options: [.initial, .old, .new]) { person, change in
      seen.add("\(change.oldValue as Any) → \(change.newValue as Any)")
    }
    person.age = 36
    let summary = person.observe(\.summary, options: .new) { _, change in
      seen.add(change.newValue!)
    }
    person.name = "Ada"
    token.invalidate()
    #expect(seen.all == ["nil → Optional(0)", "Optional(0) → Optional(36)", "Ada, 36"])
    summary.invalidate()
  }
}
