import Foundation
import KeyValueObservingCombine
import Testing

@KeyValueObservable
final class EdgePublisherItem: @unchecked Sendable {
  // @unchecked Sendable: handed to another thread only to be let go of.
  var name: String
  init(_ name: String) { self.name = name }
}

@KeyValueObservable
final class EdgePublisherCell: @unchecked Sendable {
  // @unchecked Sendable: handed to another thread only to be let go of.
  weak var item: EdgePublisherItem?
  var title = ""
}

final class EdgePublisherBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: handed over, then waited for on a semaphore.
  var value: Value?
  init(_ value: Value?) { self.value = value }
}

@Suite("publisher(for:) with .deallocation at its edges")
struct PublisherDeallocationEdgeTests {
  @Test("with .prior a freed link sends the value before, then nil")
  func priorThenNil() {
    let cell = EdgePublisherCell()
    var item: EdgePublisherItem? = EdgePublisherItem("Ada")
    cell.item = item
    let probe = ProbeSubscriber<String?>()
    cell.publisher(for: \.item?.name, options: [.initial, .prior, .new, .deallocation]).subscribe(probe)
    item = nil
    #expect(probe.values == ["Ada", "Ada", nil])
    probe.cancel()
  }

  @Test("without the option a freed link sends nothing and the freed object never finishes")
  func silentWithoutOption() {
    var cell: EdgePublisherCell? = EdgePublisherCell()
    var item: EdgePublisherItem? = EdgePublisherItem("Ada")
    cell?.item = item
    let finished = Counter()
    let probe = ProbeSubscriber<String?>(completed: finished)
    cell!.publisher(for: \.item?.name).subscribe(probe)
    item = nil
    cell = nil
    #expect(probe.values == ["Ada"])
    #expect(finished.count == 0)
  }

  @Test("a subscriber with no demand: the object freed still finishes it, and the subscriber is released")
  func finishesWithoutDemand() {
    var cell: EdgePublisherCell? = EdgePublisherCell()
    let finished = Counter()
    var probe: ProbeSubscriber<String>? = ProbeSubscriber<String>(firstDemand: .none, completed: finished)
    weak let probeRef = probe
    cell!.publisher(for: \.title, options: [.initial, .new, .deallocation]).subscribe(probe!)
    cell!.title = "pending"
    cell = nil
    #expect(finished.count == 1)
    probe?.request(.unlimited)
    #expect(probe?.values == [] || probe?.values == ["pending"])
    probe = nil
    #expect(probeRef == nil)
  }

  @Test("the object freed on another thread finishes a sink there; the link freed sends nil first")
  func freedOnAnotherThread() {
    let cell = EdgePublisherBox(EdgePublisherCell())
    let item = EdgePublisherBox(EdgePublisherItem("Ada"))
    cell.value?.item = item.value
    let values = EdgeRecorder<String>()
    let completions = Counter()
    let cancellable = cell.value!.publisher(for: \.item?.name, options: [.new, .deallocation]).sink(
      receiveCompletion: { _ in completions.increment() },
      receiveValue: { values.append($0 ?? "nil") }
    )
    let done = DispatchSemaphore(value: 0)
    Thread {
      item.value = nil
      cell.value = nil
      done.signal()
    }.start()
    done.wait()
    #expect(values.elements == ["nil"])
    #expect(completions.count == 1)
    _ = cancellable
  }

  @Test("a subscription to a freed link's object value does not keep it alive")
  func objectValueNotKept() {
    let cell = EdgePublisherCell()
    var item: EdgePublisherItem? = EdgePublisherItem("Ada")
    cell.item = item
    weak let probe = item
    let names = EdgeRecorder<String>()
    let cancellable = cell.publisher(for: \.item, options: [.prior, .new, .deallocation])
      .sink { names.append($0?.name ?? "nil") }
    item = nil
    #expect(probe == nil)
    #expect(names.elements.last == "nil")
    _ = cancellable
  }
}

/// Collects values from any thread.
final class EdgeRecorder<Element: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: guarded by `lock`.
  private let lock = NSLock()
  private var storage: [Element] = []
  func append(_ element: Element) { lock.withLock { storage.append(element) } }
  var elements: [Element] { lock.withLock { storage } }
}
