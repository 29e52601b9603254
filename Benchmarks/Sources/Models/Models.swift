import KeyValueObserving
import Observation
import OpenCombine

/// The floor: a class with a plain stored property.
public final class PlainModel {
  public var value = 0
  public init() {}
}

/// The same class, observable key by key.
@KeyValueObservable
public final class ObservableModel {
  public var value = 0
  public init() {}
}

/// The same class, declaring `Observable`: tracked by Swift Observation too.
@KeyValueObservable
public final class TrackedModel: Observable {
  public var value = 0
  public init() {}
}

/// The same class with Swift Observation.
@Observable
public final class ObservationModel {
  public var value = 0
  public init() {}
}

/// The same class with an OpenCombine `@Published` property.
public final class PublishedModel {
  @Published public var value = 0
  public init() {}
}

/// An object with two observable keys.
@KeyValueObservable
public final class TwoKeys {
  public var first = 0
  public var second = 0
  public init() {}
}

/// The owner of a controller.
public final class Owner {
  public init() {}
}

/// A classic observer that ignores what it is told.
public final class IgnoringObserver: KeyValueObserver {
  public init() {}

  public func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {}
}

/// A document of a model graph: a title and a list of items.
@KeyValueObservable
public final class GraphDocument {
  public var title = ""
  public var items: [GraphItem]

  public init(items: Int) {
    self.items = (0..<items).map { _ in GraphItem() }
  }
}

/// One item of a document.
@KeyValueObservable
public final class GraphItem {
  public var text = ""
  public var done = false
  public var count = 0
  public init() {}
}
