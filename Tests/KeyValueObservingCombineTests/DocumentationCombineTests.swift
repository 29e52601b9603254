import KeyValueObservingCombine
import Testing

/// The Combine article's models (UsingThePublisher.md), as written there.
@KeyValueObservable
private final class Player {
  var name = "Ada"
  var score = 0
  var scores: [Int] = []
}

@KeyValueObservable
private final class Field {
  var text = ""
}

@Suite("Using the publisher, as the Combine article shows it")
struct ReadmeCombineTests {
  @Test("the first example: the value at once, each new one, nothing after cancel")
  func firstExample() {
    let player = Player()
    var printed: [String] = []
    let cancellable = player.publisher(for: \.score)
      .map { "\($0) points" }
      .sink { printed.append($0) }
    #expect(printed == ["0 points"])
    player.score = 10
    #expect(printed == ["0 points", "10 points"])
    cancellable.cancel()
    #expect(player.observationInfo.isEmpty)
    player.score = 20
    #expect(printed.count == 2)
  }

  @Test("an in-place append sends the whole collection")
  func inPlaceAppend() {
    let player = Player()
    var sent: [[Int]] = []
    let cancellable = player.publisher(for: \.scores).sink { sent.append($0) }
    player.scores.append(3)
    player.mutableArrayValue(for: \.scores).append(4)
    #expect(sent == [[], [3], [3, 4]])
    cancellable.cancel()
  }

  @Test("the two-way binding: the change crosses and does not loop")
  func twoWayBinding() {
    let player = Player()
    let field = Field()
    var playerWrites = 0
    let counting = player.observe(\.name) { _, _ in playerWrites += 1 }
    let toField = player.publisher(for: \.name).removeDuplicates()
      .assign(to: \.text, on: field)
    let toPlayer = field.publisher(for: \.text).removeDuplicates()
      .assign(to: \.name, on: player)
    #expect(field.text == "Ada")
    playerWrites = 0
    field.text = "Grace"
    #expect(player.name == "Grace")
    #expect(playerWrites == 1)
    toField.cancel()
    toPlayer.cancel()
    counting.invalidate()
  }
}
