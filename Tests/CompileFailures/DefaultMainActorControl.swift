// Models as an app target writes them, whose module makes the main actor the
// default isolation (`-default-isolation MainActor`, Xcode's default for new
// apps): every class here is isolated to the main actor without saying so,
// which the macro cannot see. This file must type-check without errors.
//
// Not yet supported there, and so not here: a computed property with a
// written type, in any class (the key table's getter for it is a nonisolated
// member calling an isolated getter); and, in a class that declares
// `Observable`, a property with observers of its own or a generic class
// (their key paths are formed in nonisolated members, which the compiler
// refuses for an isolated property).
import KeyValueObserving
import Observation

@KeyValueObservable
final class Sheet: Observable {
  var title = ""
  var count = 0
  weak var parent: Sheet?
  @KeyValueIgnored var cache = 0
}

@KeyValueObservable
class Document: Observable {
  var name = ""
}

@KeyValueObservable
final class Draft: Document {
  var revision = 0
}

@KeyValueObservable
final class Counter {
  var value = 0
}

func use() {
  let sheet = Sheet()
  sheet.title = "Budget"
  sheet.count += 1
  let token = sheet.observe(\.count) { _, _ in }
  withObservationTracking {
    _ = sheet.title
  } onChange: {
  }
  token.invalidate()
  let draft = Draft()
  draft.revision = 2
  draft.name = "Plan"
  Counter().value = 1
}
