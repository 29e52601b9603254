import KeyValueObserving
import Testing

@Suite("The property's own willSet and didSet keep working")
struct PropertyObserverTests {
  @Test("willSet and didSet run once per assignment, observed or not")
  func runOnce() {
    let thermostat = Thermostat()
    thermostat.target = 21
    #expect(thermostat.willSetCalls == [21])
    #expect(thermostat.didSetCalls == [20])

    let token = thermostat.observe(\.target, options: [.old, .new]) { _, _ in }
    thermostat.target = 22
    #expect(thermostat.willSetCalls == [21, 22])
    #expect(thermostat.didSetCalls == [20, 21])
    _ = token
  }

  @Test("didSet runs before observers are notified")
  func didSetBeforeObservers() {
    let thermostat = Thermostat()
    let seenByObserver = Recorder<[Int]>()
    let token = thermostat.observe(\.target) { thermostat, _ in
      seenByObserver.append(thermostat.didSetCalls)
    }
    thermostat.target = 25
    #expect(seenByObserver.elements == [[20]])
    _ = token
  }

  @Test("a didSet that adjusts its own property notifies once, with the adjusted value")
  func clampingDidSet() {
    let thermostat = Thermostat()
    thermostat.level = 5
    let changes = Recorder<KeyValueObservedChange<Int>>()
    let token = thermostat.observe(\.level, options: [.old, .new, .prior]) { _, change in
      changes.append(change)
    }
    thermostat.level = -3
    #expect(thermostat.level == 0)
    #expect(
      changes.elements == [
        KeyValueObservedChange(kind: .setting, oldValue: 5, isPrior: true),
        KeyValueObservedChange(kind: .setting, newValue: 0, oldValue: 5),
      ]
    )
    _ = token
  }

  @Test("an unobserved clamping didSet still clamps")
  func clampingUnobserved() {
    let thermostat = Thermostat()
    thermostat.level = -1
    #expect(thermostat.level == 0)
  }
}
