import Testing

@testable import KeyValueObserving

@Suite("Diagnostics: the default handler prints each distinct problem once")
struct DiagnosticsPrintingTests {
  @Test("a diagnostic is printed the first time it is reported, not again; another one is")
  func oncePerDistinctProblem() {
    let marker = "printed-once test \(UInt64.random(in: 0...UInt64.max))"
    let first = KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker)
    #expect(KeyValueObservingDiagnostic.isFirstPrint(of: first))
    #expect(!KeyValueObservingDiagnostic.isFirstPrint(of: first))
    let other = KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: marker + " (other)")
    #expect(KeyValueObservingDiagnostic.isFirstPrint(of: other))
  }
}
