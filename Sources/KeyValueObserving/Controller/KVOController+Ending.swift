// How a controller ends observations: taken out of its table and filed
// as ending in one locked section, then their gates closed and tokens
// invalidated after the lock, waiting for blocks running elsewhere.

extension KVOController {
  /// Ends what `take` takes out of the table: closes each gate (which
  /// waits for its running blocks, from outside every block) and
  /// invalidates each token. With `waitingFor` (an object's identity, a
  /// key; `nil` for all), also waits for the blocks of observations that
  /// match it and that another call is ending: without that, an
  /// `unobserve` that found the observation already taken out returned
  /// while the other call still waited for its block.
  func end(
    waitingFor match: (id: ObjectIdentifier?, key: AnyHashable?)?,
    taking take: (inout ControllerObservationTable) -> [ControllerObservation]
  ) {
    // Taken out and filed as ending in one locked section, so that a
    // racing `unobserve` finds the observation in one place or the other.
    let (ended, tokens, others) = observations.withLock { table in
      let others = match.map { table.ending(of: $0.id, key: $0.key) } ?? []
      let ended = take(&table)
      table.beginEnding(ended)
      return (ended, ended.map(\.token), others)
    }
    for (observation, token) in zip(ended, tokens) {
      observation.gate.close()
      token?.invalidate()
    }
    for observation in others {
      observation.gate.close()
    }
    if !ended.isEmpty {
      observations.withLock { $0.finishEnding(ended) }
    }
  }
}
