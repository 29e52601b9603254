import Benchmark
import BenchmarkModels
import KeyValueObserving
import KeyValueObservingCombine
import Observation
import OpenCombine

/// Memory, from the malloc interposer's counts of live bytes.
let benchmarks: @Sendable () -> Void = {
  let count = 100_000
  let perRegistration = BenchmarkMetric.custom("live bytes per registration", useScalingFactor: false)
  let perObject = BenchmarkMetric.custom("bytes added per object", useScalingFactor: false)

  Benchmark("memory: ours, live registration (token included)", configuration: .custom(perRegistration)) { benchmark in
    let model = ObservableModel()
    // The registrar's storage is made once per object: make it first, so
    // the figure is what each further registration costs.
    model.observe(\.value) { _, _ in }.invalidate()
    let bytes = liveBytes {
      (0..<count).map { _ in model.observe(\.value, options: [.old, .new]) { _, _ in } }
    }
    benchmark.measurement(perRegistration, bytes / count)
  }

  // The first observation of each object: the registrar's storage, the
  // registration and the token.
  Benchmark("memory: ours, first observation of an object", configuration: .custom(perRegistration)) { benchmark in
    let models = (0..<count).map { _ in ObservableModel() }
    var tokens: [KeyValueObservation] = []
    tokens.reserveCapacity(count)
    let bytes = liveBytes {
      for model in models {
        tokens.append(model.observe(\.value, options: [.old, .new]) { _, _ in })
      }
    }
    benchmark.measurement(perRegistration, bytes / count)
    withExtendedLifetime((models, tokens)) {}
  }

  // A registration on a key nobody observed yet, on objects whose other key
  // is observed already.
  Benchmark("memory: ours, registration on another key of an observed object", configuration: .custom(perRegistration)) {
    benchmark in
    let models = (0..<count).map { _ in TwoKeys() }
    let first = models.map { $0.observe(\.first) { _, _ in } }
    var tokens: [KeyValueObservation] = []
    tokens.reserveCapacity(count)
    let bytes = liveBytes {
      for model in models {
        tokens.append(model.observe(\.second, options: [.old, .new]) { _, _ in })
      }
    }
    benchmark.measurement(perRegistration, bytes / count)
    withExtendedLifetime((models, first, tokens)) {}
  }

  Benchmark("memory: anchor OpenCombine sink", configuration: .custom(perRegistration)) { benchmark in
    let subject = CurrentValueSubject<Int, Never>(0)
    let bytes = liveBytes {
      (0..<count).map { _ in subject.sink { _ in } }
    }
    benchmark.measurement(perRegistration, bytes / count)
  }

  Benchmark("memory: ours, publisher(for:) sink", configuration: .custom(perRegistration)) { benchmark in
    let model = ObservableModel()
    model.observe(\.value) { _, _ in }.invalidate()
    let bytes = liveBytes {
      (0..<count).map { _ in model.publisher(for: \.value).sink { _ in } }
    }
    benchmark.measurement(perRegistration, bytes / count)
  }

  Benchmark("memory: anchor OpenCombine @Published sink", configuration: .custom(perRegistration)) { benchmark in
    let model = PublishedModel()
    let bytes = liveBytes {
      (0..<count).map { _ in model.$value.sink { _ in } }
    }
    benchmark.measurement(perRegistration, bytes / count)
  }

  Benchmark("memory: anchor Observation tracking", configuration: .custom(perRegistration)) { benchmark in
    let model = ObservationModel()
    let bytes = liveBytes {
      for _ in 0..<count {
        withObservationTracking { blackHole(model.value) } onChange: {}
      }
    }
    benchmark.measurement(perRegistration, bytes / count)
    model.value += 1  // fires and drops the pending registrations
  }

  Benchmark("memory: ours, bytes added per unobserved object", configuration: .custom(perObject)) { benchmark in
    let observable = liveBytes { (0..<count).map { _ in ObservableModel() } }
    let plain = liveBytes { (0..<count).map { _ in PlainModel() } }
    benchmark.measurement(perObject, (observable - plain) / count)
  }

  // A class that declares Observable: its Observation registrar; once
  // written, also the registrar's storage, which its first write makes.
  Benchmark("memory: ours, bytes added per unobserved object declaring Observable", configuration: .custom(perObject)) {
    benchmark in
    let tracked = liveBytes { (0..<count).map { _ in TrackedModel() } }
    let plain = liveBytes { (0..<count).map { _ in PlainModel() } }
    benchmark.measurement(perObject, (tracked - plain) / count)
  }

  Benchmark("memory: ours, bytes added per written object declaring Observable", configuration: .custom(perObject)) {
    benchmark in
    let written = liveBytes {
      (0..<count).map { _ in
        let model = TrackedModel()
        model.value = 1
        return model
      }
    }
    let plain = liveBytes { (0..<count).map { _ in PlainModel() } }
    benchmark.measurement(perObject, (written - plain) / count)
  }

  Benchmark("memory: anchor @Observable, bytes added per object", configuration: .custom(perObject)) { benchmark in
    let observable = liveBytes { (0..<count).map { _ in ObservationModel() } }
    let plain = liveBytes { (0..<count).map { _ in PlainModel() } }
    benchmark.measurement(perObject, (observable - plain) / count)
  }
}

/// An object with two observable keys.
@KeyValueObservable
final class TwoKeys {
  var first = 0
  var second = 0
}
