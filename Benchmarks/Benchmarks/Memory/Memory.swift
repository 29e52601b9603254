import Benchmark
import BenchmarkModels
import KeyValueObserving
import KeyValueObservingCombine
import Observation
import OpenCombine

/// Memory, from the malloc interposer's counts of live bytes: the sizes
/// asked for. The heap's own count, which the budgets are on, is taken by
/// the HeapProbe executable, in a process the interposer (which adds a
/// header to each allocation) is not part of.
let benchmarks: @Sendable () -> Void = {
  let count = 100_000
  let perRegistration = BenchmarkMetric.custom("live bytes per registration", useScalingFactor: false)
  let perObject = BenchmarkMetric.custom("bytes added per object", useScalingFactor: false)

  /// A row of `count` registrations: the bytes `register` leaves allocated,
  /// per registration.
  func registrations(_ name: String, _ register: @escaping () -> Int) {
    Benchmark(name, configuration: .custom(perRegistration)) { benchmark in
      benchmark.measurement(perRegistration, register() / count)
    }
  }

  // A registration on a key already observed: the registrar's storage and
  // the key's list exist, so the figure is the registration and its token.
  registrations("memory: ours, live registration (token included)") {
    let model = ObservableModel()
    let first = model.observe(\.value) { _, _ in }
    defer { withExtendedLifetime(first) {} }
    return liveBytes {
      (0..<count).map { _ in model.observe(\.value, options: [.old, .new]) { _, _ in } }
    }
  }

  // The first observation of each object: the registrar's storage, the
  // registration and the token.
  registrations("memory: ours, first observation of an object") {
    let models = (0..<count).map { _ in ObservableModel() }
    defer { withExtendedLifetime(models) {} }
    return liveBytes {
      models.map { $0.observe(\.value, options: [.old, .new]) { _, _ in } }
    }
  }

  // A registration on a key nobody observed yet, on objects whose other key
  // is observed already.
  registrations("memory: ours, registration on another key of an observed object") {
    let models = (0..<count).map { _ in TwoKeys() }
    let first = models.map { $0.observe(\.first) { _, _ in } }
    defer { withExtendedLifetime((models, first)) {} }
    return liveBytes {
      models.map { $0.observe(\.second, options: [.old, .new]) { _, _ in } }
    }
  }

  // A controller's observation of an object already observed otherwise:
  // the registration and the controller's record of it.
  registrations("memory: ours, controller observation") {
    let models = (0..<count).map { _ in ObservableModel() }
    let first = models.map { $0.observe(\.value) { _, _ in } }
    let owner = Owner()
    let controller = KVOController(observer: owner)
    defer { withExtendedLifetime((models, first, controller)) {} }
    return liveBytes {
      for model in models {
        controller.observe(model, \.value, options: [.old, .new]) { _, _, _ in }
      }
      return 0
    }
  }

  // A classic observer added to a key already observed.
  registrations("memory: ours, classic observer") {
    let model = ObservableModel()
    let first = model.observe(\.value) { _, _ in }
    let observer = IgnoringObserver()
    defer { withExtendedLifetime((model, first, observer)) {} }
    return liveBytes {
      for _ in 0..<count {
        try? model.addObserver(observer, forKeyPath: "value", options: [.old, .new])
      }
      return 0
    }
  }

  registrations("memory: ours, changes(for:) stream") {
    let model = ObservableModel()
    let first = model.observe(\.value) { _, _ in }
    defer { withExtendedLifetime((model, first)) {} }
    return liveBytes {
      (0..<count).map { _ in model.changes(for: \.value) }
    }
  }

  registrations("memory: ours, publisher(for:) sink") {
    let model = ObservableModel()
    let first = model.observe(\.value) { _, _ in }
    defer { withExtendedLifetime((model, first)) {} }
    return liveBytes {
      (0..<count).map { _ in model.publisher(for: \.value).sink { _ in } }
    }
  }

  registrations("memory: anchor OpenCombine sink") {
    let subject = CurrentValueSubject<Int, Never>(0)
    return liveBytes {
      (0..<count).map { _ in subject.sink { _ in } }
    }
  }

  registrations("memory: anchor OpenCombine @Published sink") {
    let model = PublishedModel()
    return liveBytes {
      (0..<count).map { _ in model.$value.sink { _ in } }
    }
  }

  registrations("memory: anchor Observation tracking") {
    let model = ObservationModel()
    defer { model.value += 1 }  // fires and drops the pending registrations
    return liveBytes {
      for _ in 0..<count {
        withObservationTracking { blackHole(model.value) } onChange: {}
      }
      return 0
    }
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
