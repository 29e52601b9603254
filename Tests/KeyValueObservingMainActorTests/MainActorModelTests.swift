import KeyValueObserving
import Observation
import Testing

/// Records what a test's handlers receive. Main-actor state, as an app's
/// view model would keep it.
final class Recorder<Value> {
  var values: [Value?] = []
  var olds: [Value?] = []
}

@Suite("Models in a module whose default isolation is the main actor")
struct MainActorModelTests {
  @Test("a stored property notifies with old and new values")
  func storedProperty() {
    let invoice = Invoice()
    let seen = Recorder<Int>()
    let token = invoice.observe(\.quantity, options: [.old, .new]) { _, change in
      seen.olds.append(change.oldValue)
      seen.values.append(change.newValue)
    }
    invoice.quantity = 3
    invoice.quantity += 1
    #expect(seen.olds == [0, 3])
    #expect(seen.values == [3, 4])
    token.invalidate()
  }

  @Test("a computed property with a written type notifies when a dependency changes")
  func computedProperty() {
    let invoice = Invoice()
    invoice.unitPrice = 5
    let seen = Recorder<Int>()
    let token = invoice.observe(\.total, options: [.initial, .new]) { _, change in
      seen.values.append(change.newValue)
    }
    invoice.quantity = 2
    invoice.unitPrice = 7
    #expect(seen.values == [0, 10, 14])
    token.invalidate()
  }

  @Test("computed properties whose getters throw or suspend leave the rest observable")
  func effectfulGetters() async throws {
    let invoice = Invoice()
    invoice.quantity = 2
    invoice.unitPrice = 3
    #expect(try invoice.checkedTotal == 6)
    #expect(await invoice.remoteTotal == 6)
    invoice.quantity = -1
    #expect(throws: InvoiceError.negativeQuantity) { try invoice.checkedTotal }
    // By string they are unknown keys, as for any property no key path names.
    #expect(throws: KeyValueCodingError.self) { try invoice.value(forKey: "checkedTotal") }
    #expect(try invoice.value(forKey: "total") as? Int == -3)
  }

  @Test("a property with its own observers runs them and notifies")
  func propertyObservers() {
    let invoice = Invoice()
    let seen = Recorder<String>()
    let token = invoice.observe(\.status, options: .new) { invoice, change in
      seen.values.append(change.newValue)
      #expect(invoice.statusChanges == seen.values.count)
    }
    invoice.status = "sent"
    invoice.status = "paid"
    #expect(seen.values == ["sent", "paid"])
    token.invalidate()
  }

  @Test("a chain through a weak link follows the link")
  func weakChain() {
    let parent = Invoice()
    parent.title = "March"
    let invoice = Invoice()
    let seen = Recorder<String?>()
    let token = invoice.observe(\.parent?.title, options: .new) { _, change in
      seen.values.append(change.newValue)
    }
    invoice.parent = parent
    parent.title = "April"
    #expect(seen.values == [.some("March"), .some("April")])
    token.invalidate()
  }

  @Test("key-value coding reaches stored, constant and computed keys")
  func keyValueCoding() throws {
    let invoice = Invoice()
    try invoice.setValue("Rent", forKey: "title")
    #expect(invoice.title == "Rent")
    #expect(try invoice.value(forKey: "number") as? Int == 7)
    invoice.mutableArrayValue(for: \.lines).append("desk")
    #expect(invoice.lines == ["desk"])
  }

  @Test("a class that declares Observable is tracked, also through a property with observers")
  func observationTracking() {
    let sheet = Sheet()
    let fired = Recorder<Bool>()
    withObservationTracking {
      _ = sheet.count
    } onChange: {
      MainActor.assumeIsolated { fired.values.append(true) }
    }
    sheet.count = 2
    #expect(fired.values.count == 1)
    #expect(sheet.willSetCalls == 1)

    let seen = Recorder<String>()
    let token = sheet.observe(\.summary, options: .new) { _, change in
      seen.values.append(change.newValue)
    }
    sheet.title = "Q1"
    #expect(seen.values == ["Q1: 2"])
    token.invalidate()
  }

  @Test("generic classes, tracked or not, are observable")
  func genericClasses() {
    let slot = Slot("a")
    let box = Box(1.5)
    let seen = Recorder<String>()
    let boxSeen = Recorder<Double>()
    let tracked = Recorder<Bool>()
    let tokens = [
      slot.observe(\.value, options: .new) { _, change in seen.values.append(change.newValue) },
      box.observe(\.value, options: [.old, .new]) { _, change in boxSeen.values.append(change.newValue) },
    ]
    withObservationTracking {
      _ = slot.revision
    } onChange: {
      MainActor.assumeIsolated { tracked.values.append(true) }
    }
    slot.value = "b"
    slot.revision += 1
    box.value = 2.5
    #expect(seen.values == ["b"])
    #expect(boxSeen.values == [2.5])
    #expect(tracked.values.count == 1)
    tokens.forEach { $0.invalidate() }
  }

  @Test("a subclass's keys and its superclass's notify through the subclass")
  func subclass() {
    let draft = Draft()
    let names = Recorder<String>()
    let labels = Recorder<String>()
    let words = Recorder<Int>()
    let tokens = [
      draft.observe(\.name, options: .new) { _, change in names.values.append(change.newValue) },
      draft.observe(\.label, options: .new) { _, change in labels.values.append(change.newValue) },
      draft.observe(\.wordCount, options: .new) { _, change in words.values.append(change.newValue) },
    ]
    draft.name = "Plan B"
    draft.revision = 2
    #expect(names.values == ["Plan B"])
    #expect(labels.values == ["Plan B r0", "Plan B r2"])
    #expect(words.values == [2])
    tokens.forEach { $0.invalidate() }
  }

  @Test("a task on the main actor loops over a model's changes, capturing the model itself, as the async-sequence article says")
  func loopInATask() async {
    let invoice = Invoice()
    let loop = Task {
      var seen: [Int] = []
      for await change in invoice.changes(for: \.quantity, options: [.initial, .new]) {
        seen.append(change.newValue!)
        if seen.count == 1 { invoice.quantity = 5 } else { break }
      }
      return seen
    }
    #expect(await loop.value == [0, 5])
  }
}
