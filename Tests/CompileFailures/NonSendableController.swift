// A controller hands out its observer, so a controller whose observer is not
// Sendable is not Sendable either: sharing it across threads would share the
// observer as well.
import KeyValueObserving

final class Screen {
  var refreshes = 0
}

func stopFromAnywhere(_ screen: Screen) -> @Sendable () -> Void {
  let kvo = KVOController(observer: screen)
  return { kvo.unobserveAll() }
  // expected-error: capture of 'kvo' with non-Sendable type 'KVOController<Screen>' in a '@Sendable' closure
}
