// The correct forms of everything the other files get wrong: this file must
// type-check without errors.
import KeyValueObserving

@KeyValueObservable
final class Model: Codable {
  var name = ""
  var tags: [String] = []
  var ids: Set<Int> = []
  weak var parent: Model?
}

@MainActor
@KeyValueObservable
final class ScreenModel {
  var title = ""
}

func synchronousPair(_ model: Model) {
  model.willChangeValue(for: \.name)
  model.name = "a"
  model.didChangeValue(for: \.name)
}

func asynchronousChange(_ model: Model) async throws {
  model.withChange(for: \.name) { model.name = "b" }
  try model.withChange(forKey: "name") { model.name = "c" }
  model.withChange(.insertion, valuesAt: RangeSet(0..<1), for: \.tags) { model.tags.insert("x", at: 0) }
  _ = model.mutableArrayValue(for: \.tags)
  _ = model.mutableSetValue(for: \.ids)
  model.withChange(.union, using: [1], for: \.ids) { model.ids.insert(1) }
  model.mutableSetValue(for: \.ids).replaceAll(with: [2])
}

@MainActor
func onTheMainActor(_ screen: ScreenModel) throws {
  try screen.setValue("t", forKey: "title")
  _ = try screen.value(forKey: "title")
}
