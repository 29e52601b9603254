/// Whether a message may tell a user to mark a class `@KeyValueObservable`:
/// not when it is declared by the system (Foundation's `NSObject`, an
/// Objective-C class, the standard library's), which nobody can mark.
/// Those messages say what can be done instead.
///
/// ```swift
/// MarkableClass.isSystemClass(NSObject.self)  // true: "mark NSObject" would advise the impossible
/// MarkableClass.isSystemClass(Theme.self)     // false
/// ```
enum MarkableClass {
  /// The modules whose classes no user of the library declares.
  private static let systemModules: Set<Substring> = [
    "__C",  // classes imported from Objective-C
    "Swift", "_Concurrency", "Dispatch", "Synchronization", "Observation", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "CoreFoundation", "Combine",
    "OpenCombine", "SwiftUI", "UIKit", "AppKit", "KeyValueObserving", "KeyValueObservingCombine",
  ]

  /// The system module that declares `type` (`"__C"` for an Objective-C
  /// class), or `nil` for a class of any other module.
  static func systemModule(of type: Any.Type) -> Substring? {
    let name = _typeName(type, qualified: true)
    guard let dot = name.firstIndex(of: "."), systemModules.contains(name[..<dot]) else { return nil }
    return name[..<dot]
  }

  /// Whether `type` is declared by a module of the system or of this
  /// library, where it cannot be marked.
  static func isSystemClass(_ type: Any.Type) -> Bool {
    systemModule(of: type) != nil
  }

  /// What to do about `type`, a class that is not `@KeyValueObservable`:
  /// `mark` for a class the user may declare, with `otherwise` for one
  /// they cannot mark; only `otherwise` for a class of the system.
  ///
  /// ```swift
  /// MarkableClass.advice(for: Theme.self, mark: "mark Theme @KeyValueObservable", otherwise: "hold it strongly")
  /// // "mark Theme @KeyValueObservable; for a class you cannot mark (another module's), hold it strongly"
  /// MarkableClass.advice(for: NSObject.self, mark: "mark NSObject @KeyValueObservable", otherwise: "hold it strongly")
  /// // "NSObject is Foundation's, which cannot be marked: hold it strongly"
  /// ```
  static func advice(for type: Any.Type, mark: String, otherwise: String) -> String {
    guard let module = systemModule(of: type) else {
      return "\(mark); for a class you cannot mark (another module's), \(otherwise)"
    }
    let origin = module == "__C" ? "an Objective-C class" : "\(module)'s"
    return "\(type) is \(origin), which cannot be marked: \(otherwise)"
  }
}
