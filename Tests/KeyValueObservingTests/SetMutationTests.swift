import KeyValueObserving
import Testing

/// Every change of `team.memberIDs`, with `options`.
private func recordMembers(
  _ team: Team,
  options: KeyValueObservingOptions = [.old, .new]
) -> (Recorder<CollectionChange<Set<Int>>>, KeyValueObservation) {
  let recorder = Recorder<CollectionChange<Set<Int>>>()
  let token = team.observe(\.memberIDs, options: options) { _, change in recorder.append(CollectionChange(change)) }
  return (recorder, token)
}

@Suite("Set mutations: Apple's four, through the proxy and by hand")
struct SetMutationTests {
  @Test("replaceAll(with:) is one replacement: old the elements removed, new the elements added, no indexes")
  func replaceAll() {
    let team = Team()
    team.memberIDs = [1, 2, 3]
    let (changes, token) = recordMembers(team)
    team.mutableSetValue(for: \.memberIDs).replaceAll(with: [2, 3, 4, 5])
    #expect(team.memberIDs == [2, 3, 4, 5])
    #expect(changes.elements == [CollectionChange(.replacement, nil, old: [1], new: [4, 5])])
    withExtendedLifetime(token) {}
  }

  @Test("each mutation by hand notifies what Apple sends, worked out from the set at the will", arguments: [
    (KeyValueSetMutation.union, CollectionChange<Set<Int>>(.insertion, nil, new: [4])),
    (.minus, CollectionChange<Set<Int>>(.removal, nil, old: [3])),
    (.intersect, CollectionChange<Set<Int>>(.removal, nil, old: [1, 2])),
    (.set, CollectionChange<Set<Int>>(.replacement, nil, old: [1, 2], new: [4])),
  ])
  func byHand(mutation: KeyValueSetMutation, expected: CollectionChange<Set<Int>>) {
    let objects: Set<Int> = [3, 4]
    for closureForm in [false, true] {
      let team = Team()
      team.memberIDs = [1, 2, 3]
      let (changes, token) = recordMembers(team)
      func apply() {
        switch mutation {
        case .union: team.memberIDs.formUnion(objects)
        case .minus: team.memberIDs.subtract(objects)
        case .intersect: team.memberIDs.formIntersection(objects)
        case .set: team.memberIDs = objects
        }
      }
      if closureForm {
        team.withChange(mutation, using: objects, for: \.memberIDs) { apply() }
      } else {
        team.willChange(mutation, using: objects, for: \.memberIDs)
        apply()
        team.didChange(mutation, using: objects, for: \.memberIDs)
      }
      #expect(changes.elements == [expected], "closure form: \(closureForm)")
      withExtendedLifetime(token) {}
    }
  }

  @Test(".prior carries the old side only, and only observers that asked get values")
  func priorAndOptions() {
    let team = Team()
    team.memberIDs = [1, 2]
    let (full, fullToken) = recordMembers(team, options: [.old, .new, .prior])
    let (bare, bareToken) = recordMembers(team, options: [])
    team.withChange(.set, using: [2, 3], for: \.memberIDs) { team.memberIDs = [2, 3] }
    #expect(
      full.elements == [
        CollectionChange(.replacement, nil, old: [1], isPrior: true),
        CollectionChange(.replacement, nil, old: [1], new: [3]),
      ])
    #expect(bare.elements == [CollectionChange(.replacement, nil)])
    withExtendedLifetime((fullToken, bareToken)) {}
  }

  @Test("a classic observer gets the kind, old and new in its dictionary")
  func classicObserver() throws {
    let team = Team()
    team.memberIDs = [1]
    let log = ChangeLog()
    try team.addObserver(log, forKeyPath: "memberIDs", options: [.old, .new])
    team.mutableSetValue(for: \.memberIDs).replaceAll(with: [2])
    team.withChange(.union, using: [5], for: \.memberIDs) { team.memberIDs.insert(5) }
    let calls = log.calls.elements
    #expect(calls.map(\.kind) == [.replacement, .insertion])
    #expect(calls[0].change[.old] as? Set<Int> == [1])
    #expect(calls[0].change[.new] as? Set<Int> == [2])
    #expect(calls[1].keys == ["kind", "new"])
    #expect(calls[1].change[.new] as? Set<Int> == [5])
  }

  @Test("a computed key over the set hears a set mutation as a setting of its own value")
  func computedKey() {
    let team = Team()
    team.memberIDs = [1, 2]
    let counts = Recorder<Change<Int>>()
    let token = team.observe(\.headcount, options: [.old, .new]) { _, change in counts.append(Change(change)) }
    team.mutableSetValue(for: \.memberIDs).replaceAll(with: [7, 8, 9])
    team.withChange(.minus, using: [7], for: \.memberIDs) { team.memberIDs.remove(7) }
    #expect(counts.elements == [Change(old: 2, new: 3), Change(old: 3, new: 2)])
    _ = token
  }

  @Test("a did without its will notifies nothing and is reported")
  func unmatchedDid() {
    let team = Team()
    let (changes, token) = recordMembers(team)
    let diagnostics = capturingDiagnostics {
      team.didChange(.union, using: [1], for: \.memberIDs)
    }
    #expect(changes.elements.isEmpty)
    #expect(diagnostics.map(\.kind) == [.unmatchedDidChange])
    #expect(diagnostics.first?.message.contains("memberIDs") == true)
    withExtendedLifetime(token) {}
  }

  @Test("a controller block and an async sequence receive set mutations too")
  func controllerAndAsyncSequence() async {
    let team = Team()
    team.memberIDs = [1]
    let observer = CountingObserver()
    let kvo = KVOController(observer: observer)
    let seen = Recorder<CollectionChange<Set<Int>>>()
    kvo.observe(team, \.memberIDs, options: [.old, .new]) { _, _, change in seen.append(CollectionChange(change)) }
    let changes = team.changes(for: \.memberIDs, options: [.old, .new])
    team.mutableSetValue(for: \.memberIDs).replaceAll(with: [2])
    team.withChange(.intersect, using: [], for: \.memberIDs) { team.memberIDs = [] }
    let expected = [
      CollectionChange<Set<Int>>(.replacement, nil, old: [1], new: [2]),
      CollectionChange<Set<Int>>(.removal, nil, old: [2]),
    ]
    #expect(seen.elements == expected)
    var received: [CollectionChange<Set<Int>>] = []
    for await change in changes {
      received.append(CollectionChange(change))
      if received.count == 2 { break }
    }
    #expect(received == expected)
  }
}
