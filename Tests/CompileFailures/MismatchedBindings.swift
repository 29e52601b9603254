// Bindings that cannot work name the form to write, not "no exact matches
// in call to instance method 'bind'" (Control.swift binds the same
// properties correctly).
import KeyValueObserving

@KeyValueObservable
final class Settings {
  var volume = 0
  var nickname: String?
  var title = ""
  var computed: String { title }
  var count: Int?
}

@KeyValueObservable
final class Field {
  var text = ""
  var optionalText: String?
  let fixed = ""
}

final class Label {
  var text = ""
  var number = 0
  let fixed = ""
}

func bindings(_ settings: Settings, _ field: Field, _ label: Label) {
  _ = settings.bind(\.volume, to: \.text, on: label)
  // expected-error: the two properties hold different types: convert with bind(_:to:on:transform:)
  _ = settings.bind(\.nickname, to: \.text, on: label)
  // expected-error: the source is Optional and the target is not: say what nil writes with bind(_:to:on:transform:)
  _ = settings.bind(\.title, to: \.fixed, on: label)
  // expected-error: the target property cannot be written
  _ = settings.bind(\.nickname, twoWayTo: \.text, on: field, initialValueFrom: .source)
  // expected-error: this side is Optional and the target is not: give placeholder:
  _ = field.bind(\.text, twoWayTo: \.nickname, on: settings, initialValueFrom: .target)
  // expected-error: the target is Optional and this side is not: bind from the Optional side
  _ = settings.bind(\.volume, twoWayTo: \.text, on: field, initialValueFrom: .source)
  // expected-error: the two properties hold different types: convert both ways with bind(_:twoWayTo:on:initialValueFrom:transform:inverse:)
  _ = settings.bind(\.title, twoWayTo: \.text, on: label, initialValueFrom: .source)
  // expected-error: a two-way binding observes and writes both sides
  _ = settings.bind(\.computed, twoWayTo: \.text, on: field, initialValueFrom: .source)
  // expected-error: a two-way binding observes and writes both sides
  _ = settings.bind(\.nickname, twoWayTo: \.text, on: label, placeholder: "", initialValueFrom: .source)
  // expected-error: a two-way binding observes and writes both sides
  _ = settings.bind(\.volume, twoWayTo: \.number, on: label, initialValueFrom: .source, transform: { $0 }, inverse: { $0 })
  // expected-error: a two-way binding observes and writes both sides
}

// no other errors
