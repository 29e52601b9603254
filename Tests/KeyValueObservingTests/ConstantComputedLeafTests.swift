import KeyValueObserving
import Testing

/// A Mac app's view models, as ported: a title each subclass overrides
/// with a constant, reached through the window's `let` link.
@KeyValueObservable
class PortedViewModel {
  var title: String { "Downloads" }
  var count = 0
  @KeyValueIgnored var scratch = 0
}

@KeyValueObservable
final class PortedHistoryViewModel: PortedViewModel {
  override var title: String { "History" }
}

@KeyValueObservable
final class PortedWindow {
  let viewModel: PortedViewModel
  var replaceable = PortedViewModel()
  let name = "main"

  init(viewModel: PortedViewModel) {
    self.viewModel = viewModel
  }
}

@Suite("A constant computed leaf through a let link, observed by string")
struct ConstantComputedLeafTests {
  @Test("accepted as Objective-C KVO accepts it: registered, sent .initial with the override's value, never fired")
  func constantLeafThroughLetLink() throws {
    let window = PortedWindow(viewModel: PortedHistoryViewModel())
    let log = ChangeLog()
    let diagnostics = try capturingDiagnostics {
      try window.addObserver(log, forKeyPath: "viewModel.title", options: [.initial, .new])
    }
    #expect(log.count == 1 && log.last?.change[.new] as? String == "History")
    #expect(window.observationInfo.count == 1, "the registration is listed")
    // The chain hears the computed leaf's announcements, so there is
    // nothing to report (the typed form likewise, below).
    #expect(diagnostics.isEmpty)
    window.viewModel.count += 1
    #expect(log.count == 1, "nothing it reads can change")
    window.viewModel.withChange(for: \.title) {}
    #expect(log.count == 2, "an announcement of the leaf is heard")
    #expect(window.removeObserver(log, forKeyPath: "viewModel.title"))
    #expect(window.observationInfo.isEmpty)
  }

  @Test("the typed form agrees: it registers, reports nothing, and hears only the leaf's announcements")
  func typedFormAgrees() {
    let window = PortedWindow(viewModel: PortedViewModel())
    var values: [String] = []
    var token: KeyValueObservation?
    let diagnostics = capturingDiagnostics {
      token = window.observe(\.viewModel.title, options: [.initial, .new]) { _, change in
        values.append(change.newValue ?? "?")
      }
    }
    #expect(values == ["Downloads"])
    #expect(diagnostics.isEmpty)
    window.viewModel.count += 1
    #expect(values == ["Downloads"], "nothing it reads can change")
    window.viewModel.withChange(for: \.title) {}
    #expect(values == ["Downloads", "Downloads"], "an announcement of the leaf is heard, as by string")
    _ = token
  }

  @Test("a path of constants only is accepted with nothing to report")
  func constantsOnly() throws {
    let window = PortedWindow(viewModel: PortedViewModel())
    let log = ChangeLog()
    let diagnostics = try capturingDiagnostics {
      try window.addObserver(log, forKeyPath: "viewModel", options: .initial)
      try window.addObserver(log, forKeyPath: "name", options: .initial)
    }
    #expect(diagnostics.isEmpty)
    #expect(log.count == 2)
  }

  @Test("an observable leaf through the let link notifies")
  func observableLeafThroughLetLink() throws {
    let window = PortedWindow(viewModel: PortedViewModel())
    let log = ChangeLog()
    try window.addObserver(log, forKeyPath: "viewModel.count", options: [.old, .new])
    window.viewModel.count = 4
    #expect(log.count == 1 && log.last?.change[.new] as? Int == 4)
    window.removeObserver(log, forKeyPath: "viewModel.count")
  }

  @Test("a refusal names its cause: the ignored leaf on the object the link holds, not the link")
  func refusalNamesTheLeaf() {
    let window = PortedWindow(viewModel: PortedHistoryViewModel())
    let log = ChangeLog()
    #expect(
      throws: KeyValueCodingError.neverNotifies(keyPath: "viewModel.scratch", key: "scratch", type: "PortedHistoryViewModel")
    ) {
      try window.addObserver(log, forKeyPath: "viewModel.scratch")
    }
    #expect(window.observationInfo.isEmpty)
  }

  @Test("an ignored last property is refused behind a link that announces, naming it")
  func ignoredLeafBehindObservableLink() {
    let window = PortedWindow(viewModel: PortedViewModel())
    let log = ChangeLog()
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "replaceable.scratch", key: "scratch", type: "PortedViewModel")) {
      try window.addObserver(log, forKeyPath: "replaceable.scratch")
    }
    let message = KeyValueCodingError.neverNotifies(keyPath: "replaceable.scratch", key: "scratch", type: "PortedViewModel")
      .description
    #expect(message.hasPrefix("PortedViewModel.scratch cannot be observed: no assignment notifies it"))
    #expect(window.observationInfo.isEmpty)
  }

  @Test("a manual did of a computed key with no will notifies nothing and is reported, as for a stored key")
  func unmatchedManualDidOfComputedKey() throws {
    let model = PortedViewModel()
    var heard = 0
    var token: KeyValueObservation?
    _ = capturingDiagnostics { token = model.observe(\.title) { _, _ in heard += 1 } }
    let diagnostics = try capturingDiagnostics {
      try model.didChangeValue(forKey: "title")
      model.didChangeValue(for: \.title)
    }
    #expect(heard == 0)
    #expect(diagnostics.map(\.kind) == [.unmatchedDidChange, .unmatchedDidChange])
    try model.withChange(forKey: "title") {}
    #expect(heard == 1, "a matched pair still notifies")
    _ = token
  }
}

@KeyValueObservable
final class PortedPanel {
  var count = 0
  @KeyValueIgnored var scratch = 0
}

@KeyValueObservable
final class PortedPanelHost {
  var panel = PortedPanel()
}

@Suite("A typed chain whose last property is ignored")
struct IgnoredLeafTypedChainTests {
  @Test("registers, and is reported as the string form is refused, naming the property")
  func typedIgnoredLeafReported() throws {
    let host = PortedPanelHost()
    var token: KeyValueObservation?
    let diagnostics = capturingDiagnostics {
      token = host.observe(\.panel.scratch) { _, _ in }
    }
    #expect(diagnostics.map(\.kind) == [.unobservableKeyPath])
    #expect(diagnostics.first?.message.contains("misses every change of PortedPanel.scratch") == true)
    #expect(capturingDiagnostics { _ = host.observe(\.panel.count) { _, _ in } }.isEmpty, "an announced leaf is not")
    let log = ChangeLog()
    #expect(throws: KeyValueCodingError.neverNotifies(keyPath: "panel.scratch", key: "scratch", type: "PortedPanel")) {
      try host.addObserver(log, forKeyPath: "panel.scratch")
    }
    _ = token
  }
}
