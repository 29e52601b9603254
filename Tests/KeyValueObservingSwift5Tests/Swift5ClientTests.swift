// This target is compiled in the Swift 5 language mode, as most app targets
// and Xcode's new-app template are: every expansion below has to parse and
// type-check there, computed properties included (Swift 5 reads
// `@MainActor (x: T) in` as an attribute with arguments).
import KeyValueObserving
import XCTest

@KeyValueObservable
final class Cart {
  var items: [String] = []
  var unitPrice = 2
  var owner: Shopper?
  var total: Int { items.count * unitPrice }
  var label: String {
    get { "\(items.count) items" }
  }
}

@KeyValueObservable
final class Shopper {
  var name = ""
  var greeting: String { "Hello, \(name)" }
}

@KeyValueObservable
class Shelf {
  var count = 0
  var isEmpty: Bool { count == 0 }
}

@KeyValueObservable
final class LabelledShelf: Shelf {
  var title = ""
  var caption: String { "\(title) (\(count))" }
}

final class Swift5ClientTests: XCTestCase {
  func testComputedPropertyNotifiesWithOldAndNew() {
    let cart = Cart()
    var seen: [String] = []
    let token = cart.observe(\.total, options: [.old, .new]) { _, change in
      seen.append("\(change.oldValue!) → \(change.newValue!)")
    }
    cart.items.append("pear")
    cart.unitPrice = 3
    XCTAssertEqual(seen, ["0 → 2", "2 → 3"])
    token.invalidate()
  }

  func testChainThroughAnOptionalLinkWithAComputedEnd() {
    let cart = Cart()
    var seen: [String?] = []
    let token = cart.observe(\.owner?.greeting, options: [.initial, .new]) { _, change in
      seen.append(change.newValue ?? nil)
    }
    let shopper = Shopper()
    cart.owner = shopper
    shopper.name = "Ada"
    XCTAssertEqual(seen, [nil, "Hello, ", "Hello, Ada"])
    token.invalidate()
  }

  func testSubclassComputedKeysFollowTheSuperclassKeys() throws {
    let shelf = LabelledShelf()
    var captions: [String] = []
    var empties: [Bool] = []
    let tokens = [
      shelf.observe(\.caption, options: .new) { _, change in captions.append(change.newValue!) },
      shelf.observe(\.isEmpty, options: .new) { _, change in empties.append(change.newValue!) },
    ]
    shelf.title = "Tins"
    shelf.count = 4
    XCTAssertEqual(captions, ["Tins (0)", "Tins (4)"])
    XCTAssertEqual(empties, [false])
    XCTAssertEqual(try shelf.value(forKey: "caption") as? String, "Tins (4)")
    tokens.forEach { $0.invalidate() }
  }

  func testStringKeysReachComputedProperties() throws {
    let cart = Cart()
    cart.items = ["a", "b"]
    XCTAssertEqual(try cart.value(forKey: "total") as? Int, 4)
    XCTAssertEqual(try cart.value(forKey: "label") as? String, "2 items")
  }
}
