import KeyValueObserving
import Testing

/// A class the macro did not mark, reached through a marked one.
final class PlainTheme {
  var accent = "blue"
  let name: String
  var palette = PlainPalette()
  /// Reads a marked object: what it reads is observed.
  let source: ThemeSource
  var forwarded: String { source.accent }

  init(name: String = "default", source: ThemeSource = ThemeSource()) {
    self.name = name
    self.source = source
  }
}

struct PlainPalette {
  var accent = "red"
}

@KeyValueObservable
final class ThemeSource {
  var accent = "green"
}

@KeyValueObservable
final class Appearance {
  var theme = PlainTheme()
  var optionalTheme: PlainTheme?
  var openTheme = OpenTheme()
  var shelf = UnmarkedShelf()
  var level = 1
  /// A fresh plain object made from an observable property at each read.
  var snapshot: PlainSnapshot { PlainSnapshot(level: level) }
}

/// A class as most are written: not final, its properties read through
/// accessors, as computed ones are.
class OpenTheme {
  var accent = "blue"
  var checked = 0 {
    didSet {}
  }
  var constant: String { "fixed" }
}

final class PlainSnapshot {
  var level: Int
  init(level: Int) { self.level = level }
}

@Suite("A chain through a class the macro did not mark is reported, naming the class to mark")
struct UnmarkedChainLinkTests {
  @Test("observe(\\.theme.accent): reported once, naming PlainTheme; replacing the theme still notifies")
  func storedVarOfPlainClass() throws {
    let appearance = Appearance()
    let values = Recorder<String>()
    var token: KeyValueObservation?
    let diagnostics = capturingDiagnostics {
      token = appearance.observe(\.theme.accent, options: .new) { _, change in values.append(change.newValue!) }
    }
    try #require(diagnostics.count == 1)
    #expect(diagnostics[0].kind == .unobservableKeyPath)
    let message = diagnostics[0].message
    #expect(message.hasPrefix("observe("))
    #expect(message.contains(" on Appearance misses changes: the key path reads a stored property of PlainTheme"))
    #expect(message.contains("; mark PlainTheme with @KeyValueObservable — every class a chain passes through must be marked"))
    #expect(
      message.hasSuffix(
        "for a class you cannot mark (another module's), observe the PlainTheme itself, and announce its changes "
          + "with withChange(for:) on the object that holds it"
      )
    )
    appearance.theme.accent = "orange"
    #expect(values.elements.isEmpty, "what the report says: nothing announces the plain class's change")
    appearance.theme = PlainTheme()
    #expect(values.elements == ["blue"], "the link the marked class holds still notifies")
    _ = token
  }

  @Test("through a struct a plain class stores, and through ?.: the plain class is named")
  func throughStructAndOptional() {
    let appearance = Appearance()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(appearance.observe(\.theme.palette.accent) { _, _ in })
      tokens.append(appearance.observe(\.optionalTheme?.accent) { _, _ in })
    }
    #expect(diagnostics.count == 2)
    #expect(diagnostics.allSatisfy { $0.kind == .unobservableKeyPath && $0.message.contains("mark PlainTheme with") })
    withExtendedLifetime(tokens) {}
  }

  @Test("a constant of a plain class, and its computed property that reads a marked object, are not reported")
  func constantsAndTrackedReadsAreFine() {
    let appearance = Appearance()
    let values = Recorder<String>()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(appearance.observe(\.theme.name) { _, _ in })
      tokens.append(appearance.observe(\.theme.forwarded, options: .new) { _, change in values.append(change.newValue!) })
    }
    #expect(diagnostics.isEmpty)
    appearance.theme.source.accent = "teal"
    #expect(values.elements == ["teal"], "the read through the plain class's computed property is tracked")
    withExtendedLifetime(tokens) {}
  }

  @Test("the string form throws notAnObservableObject for the link and reports the class to mark")
  func stringForm() throws {
    let appearance = Appearance()
    let log = ChangeLog()
    let diagnostics = capturingDiagnostics {
      #expect(throws: KeyValueCodingError.notAnObservableObject(keyPath: "theme.accent", key: "theme", type: "Appearance")) {
        try appearance.addObserver(log, forKeyPath: "theme.accent")
      }
    }
    try #require(diagnostics.count == 1)
    #expect(diagnostics[0].kind == .unobservableKeyPath)
    #expect(
      diagnostics[0].message
        == "\"theme.accent\" cannot be observed on Appearance: Appearance.theme holds a PlainTheme, which is not marked "
        + "@KeyValueObservable, so nothing announces its changes and key-value coding cannot reach its keys; mark "
        + "PlainTheme with @KeyValueObservable — every class a chain passes through must be marked; for a class you "
        + "cannot mark (another module's), observe \"theme\", which notifies when the PlainTheme is replaced"
    )
    #expect(appearance.observationInfo.isEmpty)
  }

  @Test("a binding from such a chain is reported as its observation is")
  func bindingFromChain() {
    let appearance = Appearance()
    let target = ThemeSource()
    var token: KeyValueObservation?
    let diagnostics = capturingDiagnostics {
      token = appearance.bind(\.theme.accent, to: \.accent, on: target)
    }
    #expect(diagnostics.map(\.kind) == [.unobservableKeyPath])
    #expect(diagnostics.first?.message.contains("mark PlainTheme with @KeyValueObservable") == true)
    #expect(target.accent == "blue", "the binding still copies the value it reads")
    _ = token
  }

  @Test("a non-final plain class, a property with didSet, an unmarked subclass: reported, naming the class")
  func throughAccessors() {
    let appearance = Appearance()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(appearance.observe(\.openTheme.accent) { _, _ in })
      tokens.append(appearance.observe(\.openTheme.checked) { _, _ in })
      tokens.append(appearance.observe(\.shelf.extra) { _, _ in })
    }
    #expect(diagnostics.map(\.kind) == [.unobservableKeyPath, .unobservableKeyPath, .unobservableKeyPath])
    #expect(diagnostics.prefix(2).allSatisfy { $0.message.contains("mark OpenTheme with @KeyValueObservable") })
    #expect(diagnostics.last?.message.contains("mark UnmarkedShelf with @KeyValueObservable") == true)
    withExtendedLifetime(tokens) {}
  }

  @Test("not reported where changes are heard or none can be: a fresh object made from an observable read, a get-only property")
  func heardOrConstant() {
    let appearance = Appearance()
    let levels = Recorder<Int>()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(appearance.observe(\.snapshot.level, options: .new) { _, change in levels.append(change.newValue!) })
      tokens.append(appearance.observe(\.openTheme.constant) { _, _ in })
      // Declared by the marked superclass: observable.
      tokens.append(appearance.observe(\.shelf.title) { _, _ in })
    }
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    appearance.level = 2
    #expect(levels.elements == [2], "the snapshot's value follows the property it is made from")
    withExtendedLifetime(tokens) {}
  }
}
