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
  _ = settings.bind(\.volume, to: label, \.text)
  // expected-error: the two properties hold different types: convert with bind(_:to:_:transform:)
  _ = settings.bind(\.nickname, to: label, \.text)
  // expected-error: the source is Optional and the target is not: say what nil writes with bind(_:to:_:placeholder:)
  _ = settings.bind(\.title, to: label, \.fixed)
  // expected-error: the target property cannot be written
  _ = settings.bind(\.nickname, twoWayTo: field, \.text, initialValueFrom: .source)
  // expected-error: this side is Optional and the target is not: give placeholder:
  _ = field.bind(\.text, twoWayTo: settings, \.nickname, initialValueFrom: .target)
  // expected-error: the target is Optional and this side is not: bind from the Optional side
  _ = settings.bind(\.volume, twoWayTo: field, \.text, initialValueFrom: .source)
  // expected-error: the two properties hold different types: convert both ways with bind(_:twoWayTo:_:initialValueFrom:transform:inverse:)
  _ = settings.bind(\.title, twoWayTo: label, \.text, initialValueFrom: .source)
  // expected-error: a two-way binding observes and writes both sides
  _ = settings.bind(\.computed, twoWayTo: field, \.text, initialValueFrom: .source)
  // expected-error: a two-way binding observes and writes both sides
  _ = settings.bind(\.count, to: label, \.text, placeholder: "-")
  // expected-error: placeholder: is written for nil into a target that holds the source's wrapped type
  _ = settings.bind(\.nickname, to: field, \.optionalText, placeholder: "")
  // expected-error: placeholder: is written for nil into a target that holds the source's wrapped type
  _ = settings.bind(\.nickname, twoWayTo: label, \.text, placeholder: "", initialValueFrom: .source)
  // expected-error: a two-way binding observes and writes both sides
  _ = settings.bind(\.volume, twoWayTo: label, \.number, initialValueFrom: .source, transform: { $0 }, inverse: { $0 })
  // expected-error: a two-way binding observes and writes both sides
}

// no other errors
