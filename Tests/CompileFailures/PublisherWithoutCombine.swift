// publisher(for:) with only the core imported names the product to add,
// not "has no member" — also when operators follow it, as they do in real
// code (the Combine tests, which import both, are the control).
import KeyValueObserving

@KeyValueObservable
final class Model {
  var name = ""
  var volume = 0
  var label = ""
  var nickname: String?
}

func subscribe(_ model: Model, into cancellables: inout [Any]) async {
  _ = model.publisher(for: \.name)
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  _ = model.publisher(for: \.volume).sink { volume in print(volume + 1) }
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  model.publisher(for: \.volume, options: .new)
    .map { "\($0) dB" }
    .removeDuplicates()
    .receive(on: 0)
    .assign(to: \.label, on: model)
    .store(in: &cancellables)
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  _ = model.publisher(for: \.nickname).compactMap { $0 }.filter { !$0.isEmpty }
    .debounce(for: 0.3, scheduler: 0).sink(receiveCompletion: { _ in }, receiveValue: { print($0.count) })
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  for await name in model.publisher(for: \.name).dropFirst().values { print(name.uppercased()) }
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  var kept: Kept?
  kept = model.publisher(for: \.volume).sink { _ in }
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  let erased: Erased<Int> = model.publisher(for: \.volume).throttle(for: .seconds(1), scheduler: 0, latest: true)
    .eraseToAnyPublisher()
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  _ = model.publisher(for: \.nickname).replaceNil(with: "").debounce(for: .milliseconds(300), scheduler: 0)
    .flatMap { name in [name] }.collect().prepend([]).share().sink { _ in }
  // expected-error: publisher(for:) is in KeyValueObservingCombine
  _ = (kept, erased)
}

/// Stand-ins for Combine's `AnyCancellable` and `AnyPublisher`, which this
/// file cannot import: what a variable the result is assigned to may hold.
final class Kept {}
struct Erased<Output> {}

// no other errors
