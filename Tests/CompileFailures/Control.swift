// The correct forms of everything the other files get wrong: this file must
// type-check without errors.
import KeyValueObserving
import Observation

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

/// Isolation inherited from a superclass, which the macro cannot see: its
/// members must compile all the same, as must a property with observers of
/// its own, which run with the class's isolation.
@MainActor
class Screen {
  func refresh() {}
}

@KeyValueObservable
final class DetailScreen: Screen {
  var items: [String] = []
  var subtitle = "" {
    didSet { refresh() }
  }
}

/// Tracked by Swift Observation: declared on the first observable class,
/// inherited by its subclass.
@KeyValueObservable
class Folder: Observable {
  var name = ""
}

@KeyValueObservable
final class TrackedFolder: Folder {
  var label = ""
}

/// A class the compiler checks as `Sendable`: its observable properties are
/// constants or computed, and its storage stays checked.
@KeyValueObservable
final class Settings: Sendable {
  let id = 1
}

func synchronousPair(_ model: Model) {
  model.willChangeValue(for: \.name)
  model.name = "a"
  model.didChangeValue(for: \.name)
}

func asynchronousChange(_ model: Model) async throws {
  model.withChange(for: \.name) { model.name = "b" }
  try model.withChange(forKey: "name") { model.name = "c" }
  model.withChange(.insertion, valuesAt: [0..<1], for: \.tags) { model.tags.insert("x", at: 0) }
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

@MainActor
func inheritedIsolation(_ screen: DetailScreen) throws {
  try screen.setValue(["a"], forKey: "items")
  try screen.setValue("b", forKey: "subtitle")
  screen.mutableArrayValue(for: \.items).append("c")
}

/// A controller whose observer is `Sendable` is `Sendable` itself.
final class Dashboard: Sendable {}

func stopFromAnywhere(_ dashboard: Dashboard) -> @Sendable () -> Void {
  let kvo = KVOController(observer: dashboard)
  return { kvo.unobserveAll() }
}

/// A classic observer with a context pointer, as the migration article
/// writes it for Swift 6 in a main-actor class: a `nonisolated(unsafe)`
/// static, passed with `&Self.context`.
@MainActor
final class ContextObserver: KeyValueObserver {
  nonisolated(unsafe) private static var context = 0

  func start(observing model: ScreenModel) throws {
    try model.addObserver(self, forKeyPath: "title", options: .new, context: &Self.context)
  }

  nonisolated func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {}
}

// MismatchedBindings.swift, written correctly: each form the hints name
// compiles, and so does every binding that needs none.
@KeyValueObservable
final class BindingSettings {
  var volume = 0
  var nickname: String?
  var title = ""
}

@KeyValueObservable
final class BindingField {
  var text = ""
  var optionalText: String?
}

final class BindingLabel {
  var text = ""
  var optionalText: String?
}

func correctBindings(_ settings: BindingSettings, _ field: BindingField, _ label: BindingLabel) -> [KeyValueObservation] {
  [
    settings.bind(\.volume, to: \.text, on: label) { "\($0) dB" },
    settings.bind(\.nickname, to: \.text, on: label, transform: { $0 ?? "—" }),
    settings.bind(\.title, to: \.text, on: label),
    settings.bind(\.title, to: \.optionalText, on: label),
    settings.bind(\.nickname, to: \.optionalText, on: label),
    settings.bind(\.nickname, twoWayTo: \.text, on: field, placeholder: "", initialValueFrom: .source),
    field.bind(\.optionalText, twoWayTo: \.nickname, on: settings, initialValueFrom: .target),
    settings.bind(
      \.volume, twoWayTo: \.text, on: field, initialValueFrom: .source, transform: { "\($0)" }, inverse: { Int($0) ?? 0 }
    ),
    settings.bind(\.title, twoWayTo: \.text, on: field, initialValueFrom: .source),
  ]
}

// MainActorObserveValue.swift, written correctly: nonisolated, as the
// change arrives on the thread that made it.
@MainActor
final class MainActorPrinter: KeyValueObserver {
  var last = 0

  nonisolated func observeValue(
    forKeyPath keyPath: String, of object: AnyObject, change: [KeyValueChangeKey: Any], context: UnsafeMutableRawPointer?
  ) {
    let value = change[.new] as? Int ?? 0
    MainActor.assumeIsolated { last = value }
  }
}

/// A `private(set)` collection is mutated through a proxy where its setter
/// is visible: in the class.
@KeyValueObservable
final class PrivateSetTag {
  private(set) var images: [String] = []
  private(set) var ids: Set<Int> = []

  func add(_ image: String, id: Int) {
    mutableArrayValue(for: \.images).append(image)
    _ = mutableSetValue(for: \.ids).insert(id)
  }
}
