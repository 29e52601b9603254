import KeyValueObserving
import Testing

@Suite("Diagnostics: one replaceable hook, scoped capture for parallel tests")
struct DiagnosticsTests {
  @Test("a scoped handler receives what its operation reports, and nested scopes win")
  func scoped() {
    let outer = Recorder<String>()
    let inner = Recorder<String>()
    KeyValueObservingDiagnosticReporter.withHandler({ outer.append($0.message) }) {
      KeyValueObservingDiagnosticReporter.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "one"))
      KeyValueObservingDiagnosticReporter.withHandler({ inner.append($0.message) }) {
        KeyValueObservingDiagnosticReporter.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "two"))
      }
    }
    #expect(outer.elements == ["one"])
    #expect(inner.elements == ["two"])
  }

  @Test("tests capturing at the same time each see only their own diagnostics")
  func parallelCapture() async {
    await withTaskGroup(of: [String].self) { group in
      for index in 0..<8 {
        group.addTask {
          capturingDiagnostics {
            Person().removeObserver(ChangeLog(), forKeyPath: "key\(index)")
          }.map(\.message)
        }
      }
      var seen: [String] = []
      for await messages in group {
        #expect(messages.count == 1)
        seen += messages
      }
      for index in 0..<8 {
        #expect(seen.filter { $0.contains("\"key\(index)\"") }.count == 1)
      }
    }
  }

  @Test("the process-wide handler receives diagnostics made outside any scope; nil restores the default")
  func processWide() {
    let marker = "process-wide handler test \(UInt64.random(in: 0...UInt64.max))"
    let received = Recorder<String>()
    KeyValueObservingDiagnosticReporter.handler = { diagnostic in
      if diagnostic.message == marker { received.append(diagnostic.message) }
    }
    defer { KeyValueObservingDiagnosticReporter.handler = nil }
    // No scoped handler is bound here: the process-wide one receives it.
    KeyValueObservingDiagnosticReporter.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker))
    #expect(received.elements == [marker])
    let scoped = capturingDiagnostics {
      KeyValueObservingDiagnosticReporter.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker))
    }
    #expect(scoped.count == 1 && received.elements == [marker], "a scoped handler still wins")
    KeyValueObservingDiagnosticReporter.handler = nil
    #expect(KeyValueObservingDiagnosticReporter.handler == nil)
  }

  @Test("a diagnostic names its kind and says what happened")
  func description() {
    let diagnostic = KeyValueObservingDiagnostic(kind: .observerFreedWhileRegistered, message: "gone")
    #expect(diagnostic.description == "KeyValueObserving: gone")
    #expect(diagnostic.kind.description == "observerFreedWhileRegistered")
  }
}
