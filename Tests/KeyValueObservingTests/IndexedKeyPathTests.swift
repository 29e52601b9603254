import KeyValueObserving
import Testing

/// An array, a dictionary and a string, for key paths through subscripts.
@KeyValueObservable
final class Playlist {
  var tracks = ["intro", "theme"]
  var ratings: [String: Int] = [:]
}

extension Array {
  /// The element at `position`, or `nil` outside the array: a subscript
  /// that cannot stop the program.
  subscript(safe position: Int) -> Element? {
    indices.contains(position) ? self[position] : nil
  }
}

@Suite("Key paths through subscripts: an array position is refused, an optional subscript observed")
struct IndexedKeyPathTests {
  @Test("observing an array element by position is refused and reported; the array may then shrink")
  func arrayPositionRefused() {
    let playlist = Playlist()
    let heard = Recorder<String>()
    var tokens: [KeyValueObservation] = []
    let diagnostics = capturingDiagnostics {
      tokens.append(playlist.observe(\.tracks[1], options: [.initial, .new]) { _, _ in heard.append("position") })
      tokens.append(playlist.observe(\.tracks[0..<2], options: .new) { _, _ in heard.append("range") })
      tokens.append(playlist.observe(\.tracks[0].count, options: .new) { _, _ in heard.append("through") })
    }
    #expect(diagnostics.map(\.kind) == [.arrayIndexKeyPath, .arrayIndexKeyPath, .arrayIndexKeyPath])
    #expect(diagnostics.allSatisfy { $0.message.contains("on Playlist is refused: the key path reads an array element by position") })
    // The key path as written: a position by its number, a range (a
    // subscript argument that is no position) elided.
    #expect(diagnostics.prefix(2).map { $0.message.prefix { $0 != " " } } == ["observe(tracks[1])", "observe(tracks[…])"])
    // What used to stop the program in the observation's re-read.
    playlist.tracks.removeAll()
    playlist.tracks = ["solo"]
    #expect(heard.elements.isEmpty, "a refused observation never calls its handler, not even for .initial")
    #expect(playlist.observationInfo.isEmpty)
    tokens.forEach { $0.invalidate() }
  }

  @Test("subscripts that return an optional are observed, through shrinking and growing")
  func optionalSubscriptsObserved() {
    let playlist = Playlist()
    let first = Recorder<String?>()
    let safe = Recorder<String?>()
    let rating = Recorder<Int?>()
    let diagnostics = capturingDiagnostics {
      let tokens = [
        playlist.observe(\.tracks.first, options: .new) { _, change in first.append(change.newValue!) },
        playlist.observe(\.tracks[safe: 1], options: .new) { _, change in safe.append(change.newValue!) },
        playlist.observe(\.ratings["theme"], options: .new) { _, change in rating.append(change.newValue!) },
      ]
      playlist.tracks.removeAll()
      playlist.tracks = ["a", "b"]
      playlist.ratings["theme"] = 5
      withExtendedLifetime(tokens) {}
    }
    #expect(diagnostics.isEmpty)
    #expect(first.elements == [nil, "a"])
    #expect(safe.elements == [nil, "b"])
    #expect(rating.elements == [5])
  }

  @Test("a sequence of an array position finishes at once")
  func sequenceFinishes() async {
    let playlist = Playlist()
    var values: KeyValueObservedSequence<String>?
    let diagnostics = capturingDiagnostics { values = playlist.values(for: \.tracks[0]) }
    #expect(diagnostics.map(\.kind) == [.arrayIndexKeyPath])
    var received: [String] = []
    for await value in values! { received.append(value) }
    #expect(received.isEmpty)
  }
}
