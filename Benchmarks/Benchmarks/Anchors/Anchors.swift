import Benchmark
import BenchmarkModels
import Observation
import OpenCombine

/// What users would otherwise pick, measured in the same run.
let benchmarks: @Sendable () -> Void = {
  // Counts one row under callgrind when count-instructions.sh asks.
  InstructionCounting.install()

  Benchmark("anchor: Observation @Observable write, no observer", configuration: .perOperation) { benchmark in
    let model = ObservationModel()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      model.value = index
      blackHole(model)
    }
  }

  Benchmark("anchor: Observation register + write + onChange", configuration: .perOperationTimeOnly) { benchmark in
    let model = ObservationModel()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      withObservationTracking {
        blackHole(model.value)
      } onChange: {
        blackHole(1)
      }
      model.value = index
      blackHole(model)
    }
  }

  for sinks in [0, 1, 10] {
    Benchmark("anchor: OpenCombine @Published write, \(sinks) sink(s)", configuration: .perOperation) { benchmark in
      let model = PublishedModel()
      let cancellables = (0..<sinks).map { _ in model.$value.sink { blackHole($0) } }
      benchmark.startMeasurement()
      for index in benchmark.scaledIterations {
        model.value = index
        blackHole(model)
      }
      benchmark.stopMeasurement()
      withExtendedLifetime(cancellables) {}
    }
  }

  Benchmark("anchor: OpenCombine CurrentValueSubject.send, 1 sink", configuration: .perOperation) { benchmark in
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { blackHole($0) }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      subject.send(index)
    }
    benchmark.stopMeasurement()
    withExtendedLifetime(cancellable) {}
  }

  Benchmark("anchor: OpenCombine sink create + cancel", configuration: .perOperationTimeOnly) { benchmark in
    let subject = CurrentValueSubject<Int, Never>(0)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let cancellable = subject.sink { _ in }
      cancellable.cancel()
      blackHole(cancellable)
    }
  }

  Benchmark("anchor: OpenCombine @Published sink create + cancel", configuration: .perOperationTimeOnly) { benchmark in
    let model = PublishedModel()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let cancellable = model.$value.sink { blackHole($0) }
      cancellable.cancel()
      blackHole(cancellable)
    }
    benchmark.stopMeasurement()
  }
}
