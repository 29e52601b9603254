import KeyValueObserving
import Testing

@KeyValueObservable
final class Presenter {
  var title = ""

  init(title: String) {
    self.title = title
  }
}

/// `weak` and `unowned` stored properties, made observable like any other.
@KeyValueObservable
final class Screen {
  weak var delegate: Presenter?
  unowned var owner: Presenter
  unowned(unsafe) var lastOwner: Presenter

  init(owner: Presenter) {
    self.owner = owner
    self.lastOwner = owner
  }
}

@Suite("weak and unowned stored properties are observable")
struct WeakPropertyTests {
  @Test("assigning a weak property notifies with old and new values, and the property stays weak")
  func weakSetterNotifies() {
    let owner = Presenter(title: "owner")
    let screen = Screen(owner: owner)
    let first = Presenter(title: "first")
    let seen = Recorder<String>()
    let token = screen.observe(\.delegate, options: [.old, .new]) { _, change in
      seen.append("\(change.oldValue??.title ?? "nil")→\(change.newValue??.title ?? "nil")")
    }
    screen.delegate = first
    screen.delegate = nil
    #expect(seen.elements == ["nil→first", "first→nil"])
    weak var released: Presenter?
    do {
      let temporary = Presenter(title: "temporary")
      released = temporary
      screen.delegate = temporary
    }
    #expect(released == nil, "the property does not keep its value alive")
    _ = token
  }

  @Test("a weak reference cleared by its referent's deinit is not a change")
  func clearedByDeinitIsSilent() {
    let screen = Screen(owner: Presenter(title: "owner"))
    var delegate: Presenter? = Presenter(title: "d")
    screen.delegate = delegate
    let count = Counter()
    let token = screen.observe(\.delegate) { _, _ in count.increment() }
    delegate = nil
    #expect(screen.delegate == nil)
    #expect(count.count == 0)
    _ = (token, delegate)
  }

  @Test("a chain through a weak link sees the link replaced and the leaf changed")
  func chainThroughWeakLink() {
    let screen = Screen(owner: Presenter(title: "owner"))
    let first = Presenter(title: "one")
    let second = Presenter(title: "two")
    screen.delegate = first
    let titles = Recorder<String?>()
    let token = screen.observe(\.delegate?.title, options: .new) { _, change in titles.append(change.newValue!) }
    first.title = "one'"
    screen.delegate = second
    first.title = "detached"
    second.title = "two'"
    #expect(titles.elements == ["one'", "two", "two'"])
    _ = token
  }

  @Test("unowned properties notify, by type and by string")
  func unownedNotifies() throws {
    let owner = Presenter(title: "a")
    let next = Presenter(title: "b")
    let screen = Screen(owner: owner)
    let seen = Recorder<String>()
    let token = screen.observe(\.owner, options: .new) { _, change in seen.append(change.newValue!.title) }
    let unsafeToken = screen.observe(\.lastOwner, options: .new) { _, change in seen.append(change.newValue!.title) }
    screen.owner = next
    try screen.setValue(next, forKey: "lastOwner")
    #expect(seen.elements == ["b", "b"])
    _ = (token, unsafeToken, owner)
  }
}
