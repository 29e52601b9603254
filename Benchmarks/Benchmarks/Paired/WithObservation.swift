import Benchmark
import BenchmarkModels
import KeyValueObserving
import Observation

/// A `@KeyValueObservable` class that declares `Observable`: tracked by
/// Swift Observation too.
@KeyValueObservable
final class PairedTracked: Observable {
  var value = 0
}

/// Swift Observation's own macro, declared here like ours, so that both
/// setters compile the way they would in application code.
@Observable
final class PairedObservationModel {
  var value = 0
}

/// The rows of a class that declares `Observable`, each next to
/// `@Observable`'s own and to a class that does not declare it. The first
/// two compare the classes declared in this module, where the loop that
/// writes them is, as an app's models are, and declared in another.
func withObservationBenchmarks() {
  paired("paired: unobserved write, declaring Observable ÷ @Observable's", operations: 10_000) {
    let theirs = PairedObservationModel()
    let reference: (Int) -> Void = { count in
      for index in 0..<count {
        theirs.value = index
        blackHole(theirs)
      }
    }
    return Pair(reference: reference, ours: trackedWrites())
  }

  // The same two classes declared in another module (`Models`), as a
  // framework's models are: both setters are then calls across modules.
  paired("paired: unobserved write, declaring Observable ÷ @Observable's, across modules", operations: 10_000) {
    let ours = TrackedModel()
    let theirs = ObservationModel()
    return Pair(
      reference: { count in
        for index in 0..<count {
          theirs.value = index
          blackHole(theirs)
        }
      },
      ours: { count in
        for index in 0..<count {
          ours.value = index
          blackHole(ours)
        }
      }
    )
  }

  paired("paired: unobserved write, declaring Observable ÷ not declaring it", operations: 10_000) {
    Pair(reference: observedWrites(observers: 0), ours: trackedWrites())
  }

  paired("paired: register + write + onChange, declaring Observable ÷ @Observable's", operations: 2_000) {
    let ours = PairedTracked()
    let theirs = PairedObservationModel()
    return Pair(
      reference: { count in
        for index in 0..<count {
          withObservationTracking { blackHole(theirs.value) } onChange: { blackHole(1) }
          theirs.value = index
        }
      },
      ours: { count in
        for index in 0..<count {
          withObservationTracking { blackHole(ours.value) } onChange: { blackHole(1) }
          ours.value = index
        }
      }
    )
  }
}

/// `count` writes to a class that declares `Observable`, which nobody
/// observes either way.
private func trackedWrites() -> (Int) -> Void {
  let model = PairedTracked()
  return { count in
    for index in 0..<count {
      model.value = index
      blackHole(model)
    }
  }
}
