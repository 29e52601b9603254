import Dispatch
import Foundation
@testable import KeyValueObserving
import Testing

@KeyValueObservable
final class IsolatedSource: @unchecked Sendable {
  var value = 0
  var items: [Int] = []
}

@KeyValueObservable
final class IsolatedTarget: @unchecked Sendable {
  var value = 0
}

final class ControllerOwner: @unchecked Sendable {}

/// An actor that makes bindings, controller blocks and sequences on
/// itself: in a debug build, each keeps the actor for its isolation check.
actor IsolatingActor {
  func bind(_ source: IsolatedSource, _ target: IsolatedTarget) -> KeyValueObservation {
    source.bind(\.value, to: \.value, on: target)
  }

  func bindTwoWay(_ source: IsolatedSource, _ target: IsolatedTarget) -> KeyValueObservation {
    source.bind(\.value, twoWayTo: \.value, on: target, initialValueFrom: .source)
  }

  func observe(_ source: IsolatedSource, with controller: KVOController<ControllerOwner>) {
    controller.observe(source, \.value) { _, _, _ in }
  }

  func observe(_ source: IsolatedSource) -> KeyValueObservation {
    source.observe(\.value) { _, _ in }
  }
}

@Suite("Isolation checks: the actor a handler checks against is a capture, released with the registration")
struct IsolationCaptureTests {
  @Test("a binding made on an actor lets go of the actor when its token is invalidated", arguments: [false, true])
  func bindingReleasesActor(twoWay: Bool) async {
    let source = IsolatedSource()
    let target = IsolatedTarget()
    weak var weakActor: IsolatingActor?
    var token: KeyValueObservation?
    do {
      let actor = IsolatingActor()
      weakActor = actor
      token = twoWay ? await actor.bindTwoWay(source, target) : await actor.bind(source, target)
    }
    token?.invalidate()
    #expect(weakActor == nil, "the invalidated binding still holds the actor it checks against")
    withExtendedLifetime(token) {}
  }

  @Test("a controller block registered on an actor lets go of the actor when unobserved")
  func controllerReleasesActor() async {
    let source = IsolatedSource()
    let owner = ControllerOwner()
    let controller = KVOController(observer: owner)
    weak var weakActor: IsolatingActor?
    do {
      let actor = IsolatingActor()
      weakActor = actor
      await actor.observe(source, with: controller)
    }
    controller.unobserve(source)
    #expect(weakActor == nil, "the unobserved block still holds the actor it checks against")
    withExtendedLifetime(controller) {}
  }

  @Test("an observe handler registered on an actor lets go of the actor when invalidated")
  func observeReleasesActor() async {
    let source = IsolatedSource()
    weak var weakActor: IsolatingActor?
    var token: KeyValueObservation?
    do {
      let actor = IsolatingActor()
      weakActor = actor
      token = await actor.observe(source)
    }
    token?.invalidate()
    #expect(weakActor == nil)
    withExtendedLifetime(token) {}
  }

  @Test("a sequence whose iterator outlives it stays registered; dropping the iterator ends the registration")
  func iteratorOutlivesSequence() {
    let source = IsolatedSource()
    var iterator: KeyValueObservedSequence<Int>.AsyncIterator? = source.values(for: \.value).makeAsyncIterator()
    #expect(source.observationInfo.count == 1, "the iterator alone keeps the registration")
    _ = iterator
    iterator = nil
    #expect(source.observationInfo.isEmpty)
  }

  @Test("a sequence dropped on one thread while another changes the key: registration gone, no value after")
  func sequenceDroppedDuringChange() {
    let source = IsolatedSource()
    for _ in 0..<200 {
      let box = SequenceBox(source.changes(for: \.value))
      let go = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      let handed = UncheckedBox(source)
      onNewThread {
        go.wait()
        for _ in 0..<5 { handed.value.withChange(for: \.value) {} }
        done.signal()
      }
      go.signal()
      box.sequence = nil
      done.wait()
      #expect(source.observationInfo.isEmpty)
    }
  }
}

final class SequenceBox: @unchecked Sendable {
  var sequence: KeyValueObservedSequence<KeyValueObservedChange<Int>>?
  init(_ sequence: KeyValueObservedSequence<KeyValueObservedChange<Int>>) { self.sequence = sequence }
}
