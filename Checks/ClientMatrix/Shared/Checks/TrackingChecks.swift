// Observes what closures read, and binds properties, the way a client
// does: compiled in each configuration of the matrix.
import KeyValueObserving
import Testing

#if MODELS_IN_ANOTHER_MODULE
  import DistributedModels
#endif

/// A view the library knows nothing of, with `UILabel`'s optional text.
final class TotalLabel {
  var text: String?
}

@Suite("A client observes closures and binds properties")
struct TrackingChecks {
  @Test("a closure runs again after each change of what it read, through chains and computed keys")
  func trackedClosure() {
    let order = Order()
    order.items = [LineItem("pen", price: 2)]
    let seen = Seen()
    let token = withKeyValueObservation {
      seen.add("\(order.total) \(order.customer?.name ?? "-")")
    }
    order.items[0].quantity = 2
    order.customer = Customer(name: "")
    order.customer?.name = "Ada"
    #expect(seen.all == ["2 -", "4 -", "4 ", "4 Ada"])
    token.invalidate()
  }

  @Test("the value form hands old and new values")
  func trackedValue() {
    let order = Order()
    let seen = Seen()
    let token = withKeyValueObservation(of: { order.number * 10 }, options: [.old, .new]) { change in
      seen.add("\(change.oldValue!) → \(change.newValue!)")
    }
    order.number = 2
    #expect(seen.all == ["0 → 20"])
    token.invalidate()
  }

  @Test("one way to a plain class, both ways between models, with a placeholder")
  func bindings() {
    let order = Order()
    let label = TotalLabel()
    let oneWay = order.bind(\.summary, to: \.text, on: label)
    order.number = 7
    #expect(label.text == "#7: 0 items")

    let customer = Customer(name: "")
    let other = Order()
    let twoWay = other.bind(\.note, twoWayTo: \.name, on: customer, initialValueFrom: .target)
    customer.name = "Ada"
    #expect(other.note == "Ada")
    other.note = "Grace"
    #expect(customer.name == "Grace")
    oneWay.invalidate()
    twoWay.invalidate()
  }
}
