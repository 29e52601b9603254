import KeyValueObserving

/// Runs `body` and returns the diagnostics it reported on this thread. Bound
/// to the current task, so tests running in parallel capture only their own.
func capturingDiagnostics(_ body: () throws -> Void) rethrows -> [KeyValueObservingDiagnostic] {
  let reported = Recorder<KeyValueObservingDiagnostic>()
  try KeyValueObservingDiagnostic.withHandler({ reported.append($0) }, body)
  return reported.elements
}
