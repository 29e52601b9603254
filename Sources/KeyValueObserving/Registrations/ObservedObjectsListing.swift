/// A controller that can list what it observes.
protocol ObservedObjectsListing: AnyObject {
  /// The live objects it observes, each once, in the order it began
  /// observing them.
  func observedObjects() -> [AnyObject]
}
