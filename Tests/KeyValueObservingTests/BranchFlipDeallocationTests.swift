import KeyValueObserving
import Testing

/// A computed key whose branch decides whether it reads through its link
/// or only asks whether the link is there.
@KeyValueObservable
final class Switchboard {
  var useA = true
  weak var link: Junction?
  var description: String { useA ? "a=\(link?.a ?? -1)" : (link == nil ? "none" : "some") }
}

/// A freed object stays heard after a branch flips (issue 63): the read
/// that matches the last one up to `link` and stops there keeps the object
/// `link` holds, so its freeing is a change.
@Suite("the .deallocation option across branch flips")
struct BranchFlipDeallocationTests {
  @Test("after the branch stops reading through the link, freeing its object still notifies")
  func freedAfterFlip() {
    let board = Switchboard()
    var target: Junction? = Junction()
    board.link = target
    var values: [String] = []
    let token = board.observe(\.description, options: [.new, .deallocation]) { _, change in
      values.append(change.newValue ?? "?")
    }
    board.useA = false
    #expect(values == ["some"])
    target = nil
    #expect(values == ["some", "none"])
    #expect(board.description == "none")
    token.invalidate()
  }

  @Test("random flips, re-links, writes and frees: the last value heard is the key's value", arguments: 0..<150)
  func randomFlipsAndFrees(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
    let board = Switchboard()
    var held: [Junction] = [Junction(), Junction()]
    board.link = held[0]
    var last: String? = nil
    let token = board.observe(\.description, options: [.initial, .new, .deallocation]) { _, change in
      last = change.newValue
    }
    var steps: [String] = []
    for _ in 0..<20 {
      switch random.next() % 5 {
      case 0:
        board.useA.toggle()
        steps.append("flip")
      case 1 where !held.isEmpty:
        board.link = held[Int(random.next() % UInt64(held.count))]
        steps.append("link")
      case 2 where !held.isEmpty:
        held.removeLast()
        steps.append("free")
      case 3:
        held.append(Junction())
        board.link = held.last
        steps.append("new link")
      default:
        board.link?.a += 1
        steps.append("write")
      }
      #expect(last == board.description, "after \(steps)")
    }
    token.invalidate()
  }
}
