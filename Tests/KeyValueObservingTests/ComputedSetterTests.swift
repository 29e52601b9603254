import Foundation
import KeyValueObserving
import Testing

/// Storage the macro cannot see, as `UserDefaults` is: a plain class.
/// Behind an `NSLock`, which the thread sanitizer sees (it cannot see
/// `Mutex`'s waits on Linux; see `LockedState`).
final class SettingsStore: @unchecked Sendable {
  // @unchecked Sendable: `values` is only touched under `lock`.
  private let lock = NSLock()
  private var values: [String: Bool] = [:]

  func bool(forKey key: String) -> Bool { lock.withLock { values[key] ?? false } }
  func set(_ value: Bool, forKey key: String) { lock.withLock { values[key] = value } }
}

/// A view model whose `collapsed` lives in the settings store.
@KeyValueObservable
final class SidebarViewModel {
  let settings = SettingsStore()
  var collapsed: Bool {
    get { settings.bool(forKey: "collapsed") }
    set { settings.set(newValue, forKey: "collapsed") }
  }
}

/// The same, announcing plain assignments in its setter.
@KeyValueObservable
final class AnnouncingSidebarViewModel {
  let settings = SettingsStore()
  var collapsed: Bool {
    get { settings.bool(forKey: "collapsed") }
    set { withChange(for: \.collapsed) { settings.set(newValue, forKey: "collapsed") } }
  }
}

@KeyValueObservable
final class Checkbox {
  var isOn = false
}

@Suite("A computed property with a setter over storage the macro cannot see")
struct ComputedSetterTests {
  @Test("setValue(_:forKey:) announces it: typed and string observers agree, old and new from the getter")
  func setValueByStringNotifies() throws {
    let model = SidebarViewModel()
    let log = ChangeLog()
    var typed: [String] = []
    var token: KeyValueObservation?
    _ = capturingDiagnostics {
      token = model.observe(\.collapsed, options: [.old, .new]) { _, change in
        typed.append("\(change.oldValue!)→\(change.newValue!)")
      }
    }
    try capturingDiagnostics { try model.addObserver(log, forKeyPath: "collapsed", options: [.old, .new]) }
      .forEach { #expect($0.kind == .unobservableKeyPath) }
    defer { model.removeObserver(log, forKeyPath: "collapsed") }
    try model.setValue(true, forKey: "collapsed")
    #expect(model.collapsed)
    #expect(typed == ["false→true"])
    #expect(log.count == 1 && log.last?.change[.old] as? Bool == false && log.last?.change[.new] as? Bool == true)
    // A failed set changes nothing, and tells nobody.
    #expect(throws: KeyValueCodingError.self) { try model.setValue("yes", forKey: "collapsed") }
    #expect(typed.count == 1 && log.count == 1)
    _ = token
  }

  @Test("a binding's write to it is announced, one way and both ways, without echo")
  func bindingWritesNotify() {
    let model = SidebarViewModel()
    let checkbox = Checkbox()
    var heard: [Bool] = []
    var tokens: [KeyValueObservation] = []
    _ = capturingDiagnostics {
      tokens.append(model.observe(\.collapsed, options: .new) { _, change in heard.append(change.newValue!) })
      tokens.append(checkbox.bind(\.isOn, to: \.collapsed, on: model))
    }
    checkbox.isOn = true
    #expect(model.collapsed && heard == [true])
    tokens.removeLast().invalidate()
    _ = capturingDiagnostics {
      tokens.append(model.bind(\.collapsed, twoWayTo: \.isOn, on: checkbox, initialValueFrom: .source))
    }
    checkbox.isOn = false
    #expect(!model.collapsed && heard == [true, false], "the bound write is heard once")
    #expect(!checkbox.isOn, "and not carried back")
    try? model.setValue(true, forKey: "collapsed")
    #expect(checkbox.isOn, "a write announced on the model side is carried to the checkbox")
    #expect(heard == [true, false, true])
    withExtendedLifetime(tokens) {}
  }

  @Test("a plain assignment announces nothing unless the setter announces it with withChange(for:)")
  func plainAssignment() {
    let model = SidebarViewModel()
    let announcing = AnnouncingSidebarViewModel()
    var heard = 0
    var announcedHeard: [Bool] = []
    var tokens: [KeyValueObservation] = []
    _ = capturingDiagnostics {
      tokens.append(model.observe(\.collapsed) { _, _ in heard += 1 })
      tokens.append(announcing.observe(\.collapsed, options: .new) { _, change in announcedHeard.append(change.newValue!) })
    }
    model.collapsed = true
    #expect(heard == 0, "the macro cannot see what the setter writes")
    announcing.collapsed = true
    #expect(announcedHeard == [true])
    // Through key-value coding the two announcements join: told once.
    try? announcing.setValue(false, forKey: "collapsed")
    #expect(announcedHeard == [true, false])
    withExtendedLifetime(tokens) {}
  }
}

/// A view model base whose computed property a subclass inherits, and one
/// that overrides it.
@KeyValueObservable
class PanelModel {
  let settings = SettingsStore()
  var pinned: Bool {
    get { settings.bool(forKey: "pinned") }
    set { settings.set(newValue, forKey: "pinned") }
  }
}

@KeyValueObservable
final class InspectorPanelModel: PanelModel {
  var extra = 0
}

@KeyValueObservable
final class LockedPanelModel: PanelModel {
  override var pinned: Bool {
    get { super.pinned }
    set { super.pinned = newValue }
  }
}

@Suite("A computed property over other storage, on a subclass")
struct InheritedComputedSetterTests {
  @Test("every form hears every announced write once, whatever class the key path is rooted at", arguments: [false, true])
  func everyFormHearsEveryWrite(overridden: Bool) throws {
    let model: PanelModel = overridden ? LockedPanelModel() : InspectorPanelModel()
    var heard = [0, 0, 0]
    let log = ChangeLog()
    var tokens: [KeyValueObservation] = []
    _ = try capturingDiagnostics {
      if let inspector = model as? InspectorPanelModel {
        tokens.append(inspector.observe(\.pinned) { _, _ in heard[0] += 1 })
      } else if let locked = model as? LockedPanelModel {
        tokens.append(locked.observe(\.pinned) { _, _ in heard[0] += 1 })
      }
      tokens.append(model.observe(\.pinned) { _, _ in heard[1] += 1 })
      try model.addObserver(log, forKeyPath: "pinned")
    }
    defer { model.removeObserver(log, forKeyPath: "pinned") }
    try model.setValue(true, forKey: "pinned")
    heard[2] = log.count
    #expect(heard == [1, 1, 1], "setValue(_:forKey:)")
    if let inspector = model as? InspectorPanelModel {
      inspector.withChange(for: \.pinned) { inspector.pinned = false }
    } else if let locked = model as? LockedPanelModel {
      locked.withChange(for: \.pinned) { locked.pinned = false }
    }
    heard[2] = log.count
    #expect(heard == [2, 2, 2], "withChange(for:) on the subclass's key path")
    let checkbox = Checkbox()
    if let inspector = model as? InspectorPanelModel {
      tokens.append(checkbox.bind(\.isOn, to: \.pinned, on: inspector))
    } else if let locked = model as? LockedPanelModel {
      tokens.append(checkbox.bind(\.isOn, to: \.pinned, on: locked))
    }
    checkbox.isOn = true
    heard[2] = log.count
    #expect(model.pinned && heard == [3, 3, 3], "a binding's write")
    withExtendedLifetime(tokens) {}
  }
}

/// A computed key declared to depend on a computed property over other
/// storage: Cocoa's `keyPathsForValuesAffectingLabel` returning `volume`.
@KeyValueObservable
final class Mixer: KeyValueObservingCustomization, Sendable {
  let settings = SettingsStore()
  var volume: Bool {
    get { settings.bool(forKey: "volume") }
    set { settings.set(newValue, forKey: "volume") }
  }
  var label: String { volume ? "loud" : "quiet" }

  static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
    key == \Mixer.label ? [\Mixer.volume] : []
  }
}

@Suite("A key declared to depend on a computed property over other storage")
struct DeclaredComputedDependencyTests {
  @Test("hears the property's announced writes, typed and by string, with nothing reported")
  func declaredDependentHears() throws {
    let mixer = Mixer()
    let log = ChangeLog()
    var typed: [String] = []
    var token: KeyValueObservation?
    let diagnostics = try capturingDiagnostics {
      token = mixer.observe(\.label, options: [.old, .new]) { _, change in
        typed.append("\(change.oldValue!)→\(change.newValue!)")
      }
      try mixer.addObserver(log, forKeyPath: "label", options: .new)
    }
    defer { mixer.removeObserver(log, forKeyPath: "label") }
    #expect(diagnostics.isEmpty, "a declared dependency is something to hear: nothing to report")
    try mixer.setValue(true, forKey: "volume")
    #expect(typed == ["quiet→loud"] && log.last?.change[.new] as? String == "loud")
    mixer.withChange(for: \.volume) { mixer.volume = false }
    #expect(typed == ["quiet→loud", "loud→quiet"] && log.count == 2)
    #expect(mixer.observationInfo.contains { $0.dependencies.contains("volume") }, "listed as what it depends on")
    let graph = "\(KeyValueObservationGraph(from: [mixer]))"
    #expect(graph.contains("label [.new, .old] ← volume") && graph.contains("label [.new] ← volume"), "\(graph)")
    token?.invalidate()
    try mixer.setValue(false, forKey: "volume")
    #expect(typed.count == 2 && log.count == 3, "an invalidated observation hears nothing more; the other does")
    #expect(!"\(KeyValueObservationGraph(from: [mixer]))".contains("label [.new, .old]"))
  }
}

@KeyValueObservable
final class SidebarWindow {
  let sidebar = SidebarViewModel()
  var replaceable = SidebarViewModel()
}

@Suite("A chain by string through to a computed property over other storage")
struct ComputedLeafChainTests {
  @Test("hears the leaf's announced writes, through a let link and a var link")
  func stringChainHearsLeaf() throws {
    let window = SidebarWindow()
    let log = ChangeLog()
    _ = try capturingDiagnostics {
      try window.addObserver(log, forKeyPath: "sidebar.collapsed", options: [.old, .new])
      try window.addObserver(log, forKeyPath: "replaceable.collapsed", options: [.old, .new])
    }
    defer {
      window.removeObserver(log, forKeyPath: "sidebar.collapsed")
      window.removeObserver(log, forKeyPath: "replaceable.collapsed")
    }
    try window.setValue(true, forKeyPath: "sidebar.collapsed")
    #expect(log.calls.elements.map(\.keyPath) == ["sidebar.collapsed"])
    #expect(log.last?.change[.old] as? Bool == false && log.last?.change[.new] as? Bool == true)
    window.replaceable.withChange(for: \.collapsed) { window.replaceable.collapsed = true }
    #expect(log.calls.elements.map(\.keyPath) == ["sidebar.collapsed", "replaceable.collapsed"])
    // Replacing the link re-registers with the new object's property.
    let next = SidebarViewModel()
    window.replaceable = next
    try next.setValue(false, forKey: "collapsed")
    #expect(log.count == 4, "the link's change, then the new leaf's")
  }

  @Test("a typed chain hears the leaf's announced writes as the string form does, through let and var links")
  func typedChainHearsLeaf() throws {
    let window = SidebarWindow()
    var typed: [String] = []
    let log = ChangeLog()
    var tokens: [KeyValueObservation] = []
    _ = try capturingDiagnostics {
      tokens.append(window.observe(\.sidebar.collapsed, options: [.old, .new]) { _, change in
        typed.append("sidebar \(change.oldValue!)→\(change.newValue!)")
      })
      tokens.append(window.observe(\.replaceable.collapsed, options: [.old, .new]) { _, change in
        typed.append("replaceable \(change.oldValue!)→\(change.newValue!)")
      })
      try window.addObserver(log, forKeyPath: "sidebar.collapsed", options: [.old, .new])
    }
    defer { window.removeObserver(log, forKeyPath: "sidebar.collapsed") }
    try window.setValue(true, forKeyPath: "sidebar.collapsed")
    #expect(typed == ["sidebar false→true"] && log.count == 1, "the typed and string forms agree")
    let checkbox = Checkbox()
    tokens.append(checkbox.bind(\.isOn, to: \.collapsed, on: window.replaceable))
    checkbox.isOn = true
    #expect(typed.last == "replaceable false→true", "a binding's write is heard through the chain")
    // Replacing the link re-registers with the new object's property.
    let next = SidebarViewModel()
    window.replaceable = next
    #expect(typed.last == "replaceable true→false", "the link's change")
    try next.setValue(true, forKey: "collapsed")
    #expect(typed.last == "replaceable false→true", "the new leaf's announced write")
    #expect(typed.count == 4)
    withExtendedLifetime(tokens) {}
  }

  @Test("a manual change of the chain, typed, is heard typed, by string and on the leaf, once each")
  func manualChainChangeHeardByEveryForm() throws {
    let window = SidebarWindow()
    let heard = try ChainListeners(window)
    defer { heard.stop() }
    window.withChange(for: \.replaceable.collapsed) { window.replaceable.collapsed = true }
    #expect(heard.typed == ["false→true"])
    #expect(heard.log.count == 1 && heard.log.last?.change[.new] as? Bool == true)
    #expect(heard.leafHeard == 1)
    window.willChangeValue(for: \.replaceable.collapsed)
    window.replaceable.collapsed = false
    window.didChangeValue(for: \.replaceable.collapsed)
    #expect(heard.typed == ["false→true", "true→false"] && heard.log.count == 2 && heard.leafHeard == 2, "the split pair too")
  }

  @Test("a tracked closure that reads the chain hears a new link, not the leaf's announcements, as documented")
  func trackedClosureHearsLinkOnly() throws {
    let window = SidebarWindow()
    var runs = 0
    let token = withKeyValueObservation {
      runs += 1
      _ = window.replaceable.collapsed
    }
    try window.replaceable.setValue(true, forKey: "collapsed")
    #expect(runs == 1, "a closure runs getters and names no key path: the leaf is not found")
    window.replaceable = SidebarViewModel()
    #expect(runs == 2, "the link it read is observed")
    #expect(token.isActive)
  }

  @Test("a binding whose target is such a chain announces its writes on the object the links hold")
  func bindingThroughChainAnnounces() throws {
    let window = SidebarWindow()
    let heard = try ChainListeners(window)
    defer { heard.stop() }
    var tokens: [KeyValueObservation] = []
    let checkbox = Checkbox()
    tokens.append(checkbox.bind(\.isOn, to: \.replaceable.collapsed, on: window))
    checkbox.isOn = true
    #expect(window.replaceable.collapsed)
    #expect(
      heard.typed == ["false→true"] && heard.log.count == 1 && heard.leafHeard == 1,
      "typed, by string and on the leaf, once each"
    )
    // After the link is replaced, the write is announced on the new object.
    let next = SidebarViewModel()
    window.replaceable = next
    checkbox.isOn = false
    checkbox.isOn = true
    #expect(next.collapsed)
    #expect(heard.typed == ["false→true", "true→false", "false→true"], "the link's change; the equal write skipped; the new leaf's")
    #expect(heard.log.count == 3, "the typed and string forms agree")

    // Two ways: the side's write is heard and not carried back.
    let other = Checkbox()
    tokens.append(other.bind(\.isOn, twoWayTo: \.replaceable.collapsed, on: window, initialValueFrom: .target))
    #expect(other.isOn)
    let before = heard.typed.count
    other.isOn = false
    #expect(!window.replaceable.collapsed && heard.typed.count == before + 1 && heard.typed.last == "true→false")
    #expect(checkbox.isOn, "a one-way binding from the checkbox is not written back")
    withExtendedLifetime(tokens) {}
  }
}

/// The three ways to hear `replaceable.collapsed` of a window: typed
/// through the chain, by string through the chain, and on the object the
/// link holds when they start.
private final class ChainListeners {
  private(set) var typed: [String] = []
  private(set) var leafHeard = 0
  let log = ChangeLog()
  private var tokens: [KeyValueObservation] = []
  private let window: SidebarWindow

  init(_ window: SidebarWindow) throws {
    self.window = window
    _ = try capturingDiagnostics {
      tokens.append(window.observe(\.replaceable.collapsed, options: [.old, .new]) { [unowned self] _, change in
        typed.append("\(change.oldValue!)→\(change.newValue!)")
      })
      tokens.append(window.replaceable.observe(\.collapsed) { [unowned self] _, _ in leafHeard += 1 })
      try window.addObserver(log, forKeyPath: "replaceable.collapsed", options: [.old, .new])
    }
  }

  func stop() {
    window.removeObserver(log, forKeyPath: "replaceable.collapsed")
    tokens.removeAll()
  }
}

@Suite("Computed writes announced from two threads at once")
struct ConcurrentComputedWriteTests {
  @Test("every setValue is heard once by the property's observer and by a key declaring it")
  func twoThreadsOfAnnouncedWrites() throws {
    let mixer = Mixer()
    let volumeChanges = Recorder<Bool>()
    let labelChanges = Recorder<Bool>()
    var tokens: [KeyValueObservation] = []
    _ = capturingDiagnostics {
      tokens.append(mixer.observe(\.volume) { _, _ in volumeChanges.append(true) })
      tokens.append(mixer.observe(\.label) { _, _ in labelChanges.append(true) })
    }
    let writes = 500
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      for index in 0..<writes {
        try? mixer.setValue((index + thread) % 2 == 0, forKey: "volume")
      }
    }
    #expect(volumeChanges.elements.count == 2 * writes)
    #expect(labelChanges.elements.count == 2 * writes)
    withExtendedLifetime(tokens) {}
  }
}
