import Foundation
import Testing

@testable import KeyValueObserving

@Suite("Diagnostics: one replaceable hook, scoped capture for parallel tests")
struct DiagnosticsTests {
  @Test("a scoped handler receives what its operation reports, and nested scopes win")
  func scoped() {
    let outer = Recorder<String>()
    let inner = Recorder<String>()
    KeyValueObservingDiagnostic.withHandler({ outer.append($0.message) }) {
      KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "one"))
      KeyValueObservingDiagnostic.withHandler({ inner.append($0.message) }) {
        KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "two"))
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
    KeyValueObservingDiagnostic.handler = { diagnostic in
      if diagnostic.message == marker { received.append(diagnostic.message) }
    }
    defer { KeyValueObservingDiagnostic.handler = nil }
    // No scoped handler is bound here: the process-wide one receives it.
    KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker))
    #expect(received.elements == [marker])
    let scoped = capturingDiagnostics {
      KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker))
    }
    #expect(scoped.count == 1 && received.elements == [marker], "a scoped handler still wins")
    KeyValueObservingDiagnostic.handler = nil
    #expect(KeyValueObservingDiagnostic.handler == nil)
  }

  @Test("0.1.0's KeyValueObservingDiagnosticReporter forwards each member to KeyValueObservingDiagnostic")
  func deprecatedReporterForwards() async {
    let calls: any ZeroOneReporterSpellings = ZeroOneReporterCalls()
    let scoped = Recorder<String>()
    calls.withScopedHandler({ scoped.append($0.message) }) {
      calls.report("sync")
      KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "new name"))
    }
    await calls.withScopedHandler({ scoped.append($0.message) }) {
      await Task.yield()
      calls.report("async")
    }
    #expect(scoped.elements == ["sync", "new name", "async"])
    let marker = "deprecated process-wide handler \(UInt64.random(in: 0...UInt64.max))"
    let received = Recorder<String>()
    calls.setProcessWideHandler { if $0.message == marker { received.append($0.message) } }
    defer { KeyValueObservingDiagnostic.handler = nil }
    #expect(KeyValueObservingDiagnostic.handler != nil, "the old setter sets the new handler")
    KeyValueObservingDiagnostic.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker))
    #expect(received.elements == [marker])
    calls.setProcessWideHandler(nil)
    #expect(KeyValueObservingDiagnostic.handler == nil)
    #if DEBUG
      let printed = KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "printed by the old name \(marker)")
      calls.printToStandardError(printed)
      #expect(!KeyValueObservingDiagnostic.isFirstPrint(of: printed), "the old standardError is the new one")
    #endif
  }

  @Test("advice names a class to mark only where someone can mark it")
  func markingAdvice() {
    #expect(MarkableClass.isSystemClass(NSObject.self))
    #expect(!MarkableClass.isSystemClass(Person.self))
    let foundation = MarkableClass.advice(for: NSObject.self, mark: "mark NSObject", otherwise: "hold it strongly")
    #expect(!foundation.contains("mark NSObject"))
    #expect(foundation.hasSuffix("which cannot be marked: hold it strongly"), "\(foundation)")
    let own = MarkableClass.advice(for: Person.self, mark: "mark Person", otherwise: "hold it strongly")
    #expect(own == "mark Person; for a class you cannot mark (another module's), hold it strongly")
  }

  @Test("a diagnostic names its kind and says what happened")
  func description() {
    let diagnostic = KeyValueObservingDiagnostic(kind: .observerFreedWhileRegistered, message: "gone")
    #expect(diagnostic.description == "KeyValueObserving: gone")
    #expect(diagnostic.kind.description == "observerFreedWhileRegistered")
  }
}

/// The calls 0.1.0's users wrote. Its witness is deprecated, so calling the
/// deprecated forms warns nowhere, while the test still goes through them.
protocol ZeroOneReporterSpellings: Sendable {
  func withScopedHandler(_ handler: @escaping KeyValueObservingDiagnostic.Handler, _ body: () -> Void)
  func withScopedHandler(_ handler: @escaping KeyValueObservingDiagnostic.Handler, _ body: () async -> Void) async
  func report(_ message: String)
  func setProcessWideHandler(_ handler: KeyValueObservingDiagnostic.Handler?)
  func printToStandardError(_ diagnostic: KeyValueObservingDiagnostic)
}

struct ZeroOneReporterCalls: ZeroOneReporterSpellings {
  @available(*, deprecated)
  func withScopedHandler(_ handler: @escaping KeyValueObservingDiagnostic.Handler, _ body: () -> Void) {
    KeyValueObservingDiagnosticReporter.withHandler(handler, operation: body)
  }

  @available(*, deprecated)
  func withScopedHandler(_ handler: @escaping KeyValueObservingDiagnostic.Handler, _ body: () async -> Void) async {
    await KeyValueObservingDiagnosticReporter.withHandler(handler, operation: body)
  }

  @available(*, deprecated)
  func report(_ message: String) {
    KeyValueObservingDiagnosticReporter.report(KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: message))
  }

  @available(*, deprecated)
  func setProcessWideHandler(_ handler: KeyValueObservingDiagnosticReporter.Handler?) {
    KeyValueObservingDiagnosticReporter.handler = handler
  }

  @available(*, deprecated)
  func printToStandardError(_ diagnostic: KeyValueObservingDiagnostic) {
    KeyValueObservingDiagnosticReporter.standardError(diagnostic)
  }
}
