import Benchmark
import KeyValueObserving
import KeyValueObservingCombine

/// OpenCombine's `@Published`, declared here like our models, so that both
/// setters compile the way they would in application code.
final class PairedPublished {
  @Published var value = 0
}

/// The rows of `publisher(for:)`, each next to the same thing done with
/// OpenCombine's `@Published`.
func withCombineBenchmarks() {
  paired("paired: write, 1 publisher(for:) sink ÷ OpenCombine @Published write, 1 sink", operations: 2_000) {
    let ours = PairedObserved()
    let theirs = PairedPublished()
    let cancellables = [
      ours.publisher(for: \.value).sink { blackHole($0) },
      theirs.$value.sink { blackHole($0) },
    ]
    return Pair(
      reference: { count in
        withExtendedLifetime(cancellables) {
          for index in 0..<count {
            theirs.value = index
            blackHole(theirs)
          }
        }
      },
      ours: { count in
        withExtendedLifetime(cancellables) {
          for index in 0..<count {
            ours.value = index
            blackHole(ours)
          }
        }
      }
    )
  }

  // The floor of any publisher's row: `Just` sends one value and finishes,
  // so its sink + cancel is little more than the `Sink`'s own work, which
  // both sides of the next row pay too.
  paired("paired: OpenCombine Just sink + cancel ÷ OpenCombine @Published sink + cancel", operations: 2_000) {
    Pair(
      reference: publishedSinkAndCancel(),
      ours: { count in
        for index in 0..<count {
          let cancellable = Just(index).sink { blackHole($0) }
          cancellable.cancel()
        }
      }
    )
  }

  // `sink` on the publisher itself subscribes without Combine's `Sink`;
  // after an operator, both sides go through Combine's generic code.
  paired(
    "paired: publisher(for:) map + sink + cancel ÷ OpenCombine @Published map + sink + cancel",
    operations: 2_000
  ) {
    let ours = PairedObserved()
    let theirs = PairedPublished()
    return Pair(
      reference: { count in
        for _ in 0..<count {
          let cancellable = theirs.$value.map { $0 + 1 }.sink { blackHole($0) }
          cancellable.cancel()
        }
      },
      ours: { count in
        for _ in 0..<count {
          let cancellable = ours.publisher(for: \.value).map { $0 + 1 }.sink { blackHole($0) }
          cancellable.cancel()
        }
      }
    )
  }

  paired("paired: publisher(for:) sink + cancel ÷ OpenCombine @Published sink + cancel", operations: 2_000) {
    let ours = PairedObserved()
    return Pair(
      reference: publishedSinkAndCancel(),
      ours: { count in
        for _ in 0..<count {
          let cancellable = ours.publisher(for: \.value).sink { blackHole($0) }
          cancellable.cancel()
        }
      }
    )
  }
}

/// `count` sinks made on an OpenCombine `@Published` property and cancelled.
private func publishedSinkAndCancel() -> (Int) -> Void {
  let model = PairedPublished()
  return { count in
    for _ in 0..<count {
      let cancellable = model.$value.sink { blackHole($0) }
      cancellable.cancel()
    }
  }
}
