extension GraphObservation {
  /// What one locked section read, added and took out: released after
  /// the lock.
  struct Work {
    var released: [AnyObject] = []
    var kept: [Any] = []
    /// Objects that joined, in the order they were found.
    var arrived: [AnyObject] = []
    /// A count dropped and stayed above zero.
    var mayHaveCutCycle = false
    /// Classes to report, after the lock: a report calls the user's
    /// diagnostic handler.
    var unobservableClasses: [Any.Type] = []

    /// Reports the classes found, and releases the rest, with no lock held.
    consuming func finish() {
      for type in unobservableClasses {
        reportProblem(
          .unobservableGraphObject,
          "a model graph observed with observeGraph reaches an object of type \(type), which is not "
            + "marked @KeyValueObservable: its changes are not heard, and the objects it links to are not followed"
        )
      }
    }
  }
}
