import KeyValueObserving

/// An item as the import makes it: a plain value, which can cross from
/// the actor that makes it to the main actor, where the models live.
struct ImportedItem: Sendable {
  var text: String
  var due: Int?
  var children: [ImportedItem] = []
}

/// Where imported items come from: a stand-in for a server or a file,
/// on an actor of its own, so the work happens off the main actor.
actor Catalog {
  private var batches = 0

  /// `count` items, each with one child, numbered by batch.
  func fetch(_ count: Int) -> [ImportedItem] {
    batches += 1
    return (1...max(1, count)).map { number in
      ImportedItem(
        text: "Imported \(batches).\(number)", due: 20 + number,
        children: [ImportedItem(text: "Detail \(batches).\(number)")]
      )
    }
  }
}

/// Runs an import in the background while the script goes on, and hands
/// its items over on the main actor when the script asks for them.
@MainActor
final class Importer {
  private let catalog = Catalog()
  private var running: Task<[ImportedItem], Never>?

  var isRunning: Bool { running != nil }

  /// Starts fetching `count` items off the main actor.
  func start(count: Int) {
    let catalog = catalog
    running = Task.detached { await catalog.fetch(count) }
  }

  /// The items of the running import, made into models on the main actor;
  /// empty when no import runs.
  func finish() async -> [OutlineItem] {
    guard let running else { return [] }
    self.running = nil
    return await running.value.map(OutlineItem.init)
  }
}

extension OutlineItem {
  /// A model made of an imported value, its children included.
  convenience init(_ imported: ImportedItem) {
    self.init(text: imported.text, due: imported.due)
    children = imported.children.map(OutlineItem.init)
  }
}
