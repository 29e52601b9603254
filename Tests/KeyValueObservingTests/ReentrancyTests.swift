import Foundation
import KeyValueObserving
import Testing

@Suite("Re-entrancy: a callback that changes the key it observes")
struct ReentrancyTests {
  /// How deep a callback that writes its own key may recurse on a thread's
  /// default 8 MB stack, unoptimised: a level of this test, the callback's
  /// own frame and the setter's included, took 5.4 KB of stack in a debug
  /// build once, and 3.3 KB before the change path was laid out for it; it
  /// takes 1.5 KB now, so 5,000 levels fit with room to spare. Under a
  /// sanitizer, whose instrumentation makes every frame larger, the depth
  /// is smaller: there the test checks the nesting.
  static let depth = isSanitized ? 500 : 5_000

  @Test("a callback that writes the key it observes recurses 5,000 levels on an 8 MB stack, in a debug build too")
  func deepRecursion() async {
    let levels = await onThread(stackSize: 8 << 20) { () -> [KeyValueObservedChange<Int>] in
      let person = Person()
      var changes: [KeyValueObservedChange<Int>] = []
      changes.reserveCapacity(Self.depth)
      let token = person.observe(\.age, options: [.old, .new]) { person, change in
        guard changes.count < Self.depth else { return }
        changes.append(change)
        person.age += 1
      }
      person.age = 1
      token.invalidate()
      return changes
    }
    #expect(levels.count == Self.depth)
    // Each level saw the change that caused it: the one before it wrote it.
    #expect(levels.first == KeyValueObservedChange(kind: .setting, newValue: 1, oldValue: 0))
    #expect(levels.last == KeyValueObservedChange(kind: .setting, newValue: Self.depth, oldValue: Self.depth - 1))
  }

  /// A level through a computed key takes about 2.8 KB in a debug build,
  /// as the Safety article says: 2,500 levels fit 8 MB.
  static let computedDepth = isSanitized ? 500 : 2_500

  @Test("a callback that writes a dependency of the computed key it observes recurses 2,500 levels on 8 MB")
  func deepRecursionThroughAComputedKey() async {
    let summaries = await onThread(stackSize: 8 << 20) { () -> [String] in
      let person = Person(name: "Ada", age: 0)
      var summaries: [String] = []
      summaries.reserveCapacity(Self.computedDepth)
      let token = person.observe(\.summary, options: .new) { person, change in
        guard summaries.count < Self.computedDepth else { return }
        summaries.append(change.newValue!)
        person.age += 1
      }
      person.age = 1
      token.invalidate()
      return summaries
    }
    #expect(summaries.count == Self.computedDepth)
    #expect(summaries.first == "Ada, 1")
    #expect(summaries.last == "Ada, \(Self.computedDepth)")
  }

  /// Runs `body` on a new thread whose stack is `stackSize` bytes, and
  /// gives its result.
  private func onThread<Result: Sendable>(
    stackSize: Int,
    _ body: @escaping @Sendable () -> Result
  ) async -> Result {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: body()) }
      thread.stackSize = stackSize
      thread.start()
    }
  }

  /// Whether the address or thread sanitizer instruments this process.
  private static var isSanitized: Bool {
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(process) }
    return dlsym(process, "__asan_init") != nil || dlsym(process, "__tsan_init") != nil
  }
}
