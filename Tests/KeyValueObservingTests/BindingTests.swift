import KeyValueObserving
import Testing

/// A view the library knows nothing of, as `UILabel` is.
final class StandInLabel {
  var text: String?
  var plainText = ""
}

/// A control whose value announces its changes, as a bound field must.
@KeyValueObservable
final class StandInField: @unchecked Sendable {
  // @unchecked Sendable: the threading tests hand it to a second thread,
  // which writes it only while the first waits.
  var text = ""
  var number = 0
}

@Suite("bind: a property kept equal to another's, one way or both")
struct BindingTests {
  @Test("one way: the target is set at once and after each change, computed values included")
  func oneWay() {
    let person = Person(name: "Ada", age: 36)
    let label = StandInLabel()
    let token = person.bind(\.summary, to: \.text, on: label)
    #expect(label.text == "Ada, 36")
    person.age = 37
    #expect(label.text == "Ada, 37")
    token.invalidate()
    person.age = 38
    #expect(label.text == "Ada, 37")
  }

  @Test("one way: an optional source through a transform that says what nil shows, and a transform")
  func oneWayPlaceholderAndTransform() {
    let person = Person()
    let label = StandInLabel()
    let placeholder = person.bind(\.nickname, to: \.plainText, on: label) { $0 ?? "—" }
    #expect(label.plainText == "—")
    person.nickname = "Ace"
    #expect(label.plainText == "Ace")
    person.nickname = nil
    #expect(label.plainText == "—")
    let field = StandInField()
    let transformed = person.bind(\.age, to: \.text, on: field) { "\($0) years" }
    person.age = 4
    #expect(field.text == "4 years")
    withExtendedLifetime((placeholder, transformed)) {}
  }

  @Test("two ways: the initial value comes from the side the call names")
  func initialDirection() {
    let person = Person(name: "Ada", age: 36)
    let field = StandInField()
    field.text = "Grace"
    let fromTarget = person.bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .target)
    #expect(person.name == "Grace" && field.text == "Grace")
    fromTarget.invalidate()
    person.name = "Hedy"
    #expect(field.text == "Grace")
    let fromSource = person.bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .source)
    #expect(field.text == "Hedy")
    withExtendedLifetime(fromSource) {}
  }

  @Test("two ways: each side's change reaches the other once, and is not sent back")
  func noEcho() {
    let person = Person(name: "Ada", age: 1)
    let field = StandInField()
    var personWrites = 0
    var fieldWrites = 0
    let counters = (
      person.observe(\.name) { _, _ in personWrites += 1 },
      field.observe(\.text) { _, _ in fieldWrites += 1 }
    )
    let token = person.bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .source)
    #expect((personWrites, fieldWrites) == (0, 1))
    field.text = "Grace"
    #expect(person.name == "Grace")
    #expect((personWrites, fieldWrites) == (1, 2))
    person.name = "Hedy"
    #expect(field.text == "Hedy")
    #expect((personWrites, fieldWrites) == (2, 3))
    withExtendedLifetime((token, counters)) {}
  }

  @Test("an Equatable value the other side holds already is not written: one notification, not two")
  func equalValueNotWritten() {
    let person = Person(name: "Ada", age: 1)
    let field = StandInField()
    field.text = "Ada"
    var fieldWrites = 0
    let counter = field.observe(\.text) { _, _ in fieldWrites += 1 }
    let token = person.bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .source)
    #expect(fieldWrites == 0)
    person.name = "Ada"  // every set notifies; the binding writes nothing
    #expect(fieldWrites == 0)
    let oneWay = person.bind(\.age, to: \.number, on: field)
    person.age = 1
    #expect(fieldWrites == 0 && field.number == 1)
    withExtendedLifetime((token, counter, oneWay)) {}
  }

  @Test("two ways: a String? bound to a String through a placeholder round-trips nil")
  func optionalPlaceholder() {
    let person = Person()
    let field = StandInField()
    let token = person.bind(\.nickname, twoWayTo: \.text, on: field, placeholder: "", initialValueFrom: .source)
    #expect(field.text == "")
    field.text = "Ace"
    #expect(person.nickname == "Ace")
    field.text = ""
    #expect(person.nickname == nil)
    person.nickname = "Bo"
    #expect(field.text == "Bo")
    withExtendedLifetime(token) {}
  }

  @Test("equality is through the transform: the placeholder itself, and an inverse that does not undo")
  func equalityThroughTransform() {
    let diagnostics = capturingDiagnostics {
      let person = Person()
      let field = StandInField()
      let nickname = person.bind(\.nickname, twoWayTo: \.text, on: field, placeholder: "", initialValueFrom: .source)
      person.nickname = ""  // written as the placeholder, and left as it is
      #expect(field.text == "" && person.nickname == "")
      field.text = "x"
      field.text = ""  // the placeholder comes back as nil
      #expect(person.nickname == nil)
      let source = Cell()
      let target = Cell()
      let skewed = source.bind(
        \.a, twoWayTo: \.a, on: target, initialValueFrom: .source, transform: { $0 + 1 }, inverse: { $0 }
      )
      source.a = 5  // the sides stay as the write left them: no loop
      #expect((source.a, target.a) == (5, 6))
      withExtendedLifetime((nickname, skewed)) {}
    }
    #expect(diagnostics.isEmpty)
  }

  @Test("two ways: a transform and its inverse")
  func transformAndInverse() {
    let person = Person()
    let field = StandInField()
    let token = person.bind(
      \.age, twoWayTo: \.text, on: field, initialValueFrom: .source, transform: { "\($0)" }, inverse: { Int($0) ?? 0 }
    )
    #expect(field.text == "0")
    field.text = "42"
    #expect(person.age == 42)
    person.age = 7
    #expect(field.text == "7")
    withExtendedLifetime(token) {}
  }

  @Test("the binding ends when either object is freed, and holds neither alive")
  func freedObjects() {
    weak var weakPerson: Person?
    weak var weakField: StandInField?
    var person: Person? = Person()
    var field: StandInField? = StandInField()
    weakPerson = person
    weakField = field
    let token = person!.bind(\.name, twoWayTo: \.text, on: field!, initialValueFrom: .source)
    field = nil
    #expect(weakField == nil)
    #expect(!token.isActive)
    person!.name = "Ada"  // nothing to write to, nothing breaks
    person = nil
    #expect(weakPerson == nil)

    let source = Person()
    var label: StandInLabel? = StandInLabel()
    weak let weakLabel = label
    let oneWay = source.bind(\.name, to: \.text, on: label!)
    label = nil
    #expect(weakLabel == nil)
    source.name = "Grace"  // finds the label gone
    #expect(!oneWay.isActive)

    var observableTarget: StandInField? = StandInField()
    let toObservable = source.bind(\.name, to: \.text, on: observableTarget!)
    observableTarget = nil
    #expect(!toObservable.isActive)  // told as it was freed
  }

  @Test("the source freed ends the binding")
  func sourceFreed() {
    var person: Person? = Person()
    let field = StandInField()
    let token = person!.bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .source)
    person = nil
    #expect(!token.isActive)
    field.text = "after"
    #expect(field.observationInfo.isEmpty)
  }

  @Test("a target that keeps changing the source is stopped and reported, not looped forever")
  func doesNotSettle() {
    let looping = LoopingTarget()
    let person = Person()
    looping.person = person
    let diagnostics = capturingDiagnostics {
      let token = person.bind(\.age, to: \.value, on: looping)
      person.age = 1
      withExtendedLifetime(token) {}
    }
    #expect(diagnostics.map(\.kind).contains(.bindingDidNotSettle))
  }

  @Test("it appears in the observation graph and in observationInfo")
  func graphAndInfo() {
    let person = Person()
    let field = StandInField()
    let token = person.bind(\.name, twoWayTo: \.text, on: field, initialValueFrom: .source)
    let graph = KeyValueObservationGraph(from: [person])
    let bindingNodes = graph.nodes.filter { $0.label.hasPrefix("binding Person.name ⇄ StandInField.text") }
    #expect(bindingNodes.count == 1)
    #expect(Set(graph.edges.map(\.key)) == ["name", "text"])
    #expect(person.observationInfo.map(\.observer) == ["binding Person.name ⇄ StandInField.text"])
    withExtendedLifetime(token) {}
  }
}

/// A target whose property observer changes the source: a binding that
/// cannot settle.
final class LoopingTarget {
  weak var person: Person?
  var value = 0 {
    didSet { person?.age += 1 }
  }
}
