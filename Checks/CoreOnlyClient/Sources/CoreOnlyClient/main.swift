import KeyValueObserving

/// A model and one observation: enough to build and link the core.
@KeyValueObservable
final class Thermometer {
  var celsius = 20.0
}

let thermometer = Thermometer()
var readings: [Double] = []
let token = thermometer.observe(\.celsius, options: [.initial, .new]) { _, change in
  readings.append(change.newValue!)
}
thermometer.celsius = 21.5
token.invalidate()
precondition(readings == [20.0, 21.5], "core-only client: unexpected readings \(readings)")
print("core-only client: observed \(readings)")
