import KeyValueObserving
import Testing

/// Stores itself into its holder's `weak` property while it is being
/// freed, where a weak reference reads `nil`.
final class SelfStoringNode {
  let holder: WeakNodeHolder
  init(holder: WeakNodeHolder) { self.holder = holder }
  deinit { holder.node = self }
}

@KeyValueObservable
final class WeakNodeHolder {
  weak var node: SelfStoringNode?
}

/// Writes its slot's key again when it is released: the old value's
/// release runs user code between an assignment and its notification.
/// Observable, so that `\ItemSlot.item?.name` is a chain that walks `item`.
@KeyValueObservable
final class RewritingItem {
  var name: String
  let slot: ItemSlot?
  init(_ name: String, slot: ItemSlot?) {
    self.name = name
    self.slot = slot
  }
  deinit { slot?.item = RewritingItem("replacement", slot: nil) }
}

@KeyValueObservable
final class ItemSlot {
  var item: RewritingItem?
}

/// The new value a change carries is the value the property holds after
/// the assignment, in debug and in release (`Checks/Optimised` links this
/// file): a setter may hand observers what it assigned only where the two
/// cannot differ.
@Suite("Assigned values: observers are handed what the property holds")
struct AssignedValueTests {
  @Test("a weak property assigned an object in its deinit: observers see nil, as the property reads")
  func weakAssignedInDeinit() {
    let holder = WeakNodeHolder()
    let seen = Recorder<Bool>()
    let token = holder.observe(\.node, options: .new) { _, change in
      // Compared, not kept: keeping a deinitialising object would crash.
      seen.append(change.newValue! == nil)
    }
    do { _ = SelfStoringNode(holder: holder) }
    #expect(holder.node == nil)
    #expect(seen.elements == [true])
    _ = token
  }

  @Test(
    "the old value's deinit writes the key again: the last notification carries the final value",
    arguments: [KeyValueObservingOptions.new, [.new, .prior]], [false, true]
  )
  func oldValueRewritesTheKey(options: KeyValueObservingOptions, walkedByChain: Bool) {
    let slot = ItemSlot()
    slot.item = RewritingItem("a", slot: slot)
    let seen = Recorder<String>()
    let token = slot.observe(\.item, options: options) { _, change in
      if !change.isPrior { seen.append(change.newValue!?.name ?? "nil") }
    }
    // A chain through the key: its write holds the old value for the
    // chain's walks, and must let go before it reads the new one.
    let chain = walkedByChain ? slot.observe(\.item?.name, options: .new) { _, _ in } : nil
    slot.item = RewritingItem("b", slot: nil)
    #expect(slot.item?.name == "replacement")
    #expect(seen.elements.last == "replacement")
    withExtendedLifetime((token, chain)) {}
  }
}

/// A plain value and an object's reference, each changed through `inout`.
@KeyValueObservable
final class InoutHolder {
  var count = 0
  var link: InoutHolder?
}

private struct Thrown: Error {}

/// Assigns `value` to `target`, then throws.
private func assignThenThrow<Value>(_ target: inout Value, _ value: Value) throws {
  target = value
  throw Thrown()
}

@Suite("Writes through inout: kept when the caller throws, as in a stored property")
struct InoutWriteTests {
  @Test("a write made through inout before a throw stays and notifies once", arguments: [false, true])
  func writeBeforeThrowStays(observed: Bool) {
    let holder = InoutHolder()
    let linked = InoutHolder()
    let heard = Recorder<String>()
    let tokens = observed
      ? [
        holder.observe(\.count, options: .new) { _, change in heard.append("count \(change.newValue!)") },
        // A chain walks `link`: a write of it goes through the setter.
        holder.observe(\.link?.count, options: .new) { _, _ in heard.append("chain") },
      ] : []
    #expect(throws: Thrown.self) { try assignThenThrow(&holder.count, 9) }
    #expect(throws: Thrown.self) { try assignThenThrow(&holder.link, linked) }
    #expect(holder.count == 9)
    #expect(holder.link === linked)
    #expect(heard.elements == (observed ? ["count 9", "chain"] : []))
    withExtendedLifetime(tokens) {}
  }
}
