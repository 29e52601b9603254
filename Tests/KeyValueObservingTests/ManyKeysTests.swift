import KeyValueObserving
import Testing

/// A class with more keys than the registrar's observed-slot mask has bits:
/// slots from 63 on share its last bit.
@KeyValueObservable
private final class WideModel {
  var p0 = 0
  var p1 = 0
  var p2 = 0
  var p3 = 0
  var p4 = 0
  var p5 = 0
  var p6 = 0
  var p7 = 0
  var p8 = 0
  var p9 = 0
  var p10 = 0
  var p11 = 0
  var p12 = 0
  var p13 = 0
  var p14 = 0
  var p15 = 0
  var p16 = 0
  var p17 = 0
  var p18 = 0
  var p19 = 0
  var p20 = 0
  var p21 = 0
  var p22 = 0
  var p23 = 0
  var p24 = 0
  var p25 = 0
  var p26 = 0
  var p27 = 0
  var p28 = 0
  var p29 = 0
  var p30 = 0
  var p31 = 0
  var p32 = 0
  var p33 = 0
  var p34 = 0
  var p35 = 0
  var p36 = 0
  var p37 = 0
  var p38 = 0
  var p39 = 0
  var p40 = 0
  var p41 = 0
  var p42 = 0
  var p43 = 0
  var p44 = 0
  var p45 = 0
  var p46 = 0
  var p47 = 0
  var p48 = 0
  var p49 = 0
  var p50 = 0
  var p51 = 0
  var p52 = 0
  var p53 = 0
  var p54 = 0
  var p55 = 0
  var p56 = 0
  var p57 = 0
  var p58 = 0
  var p59 = 0
  var p60 = 0
  var p61 = 0
  var p62 = 0
  var p63 = 0
  var p64 = 0
  var p65 = 0
}

@Suite("Classes with more than 63 observable keys")
struct ManyKeysTests {
  @Test("keys from the 64th on notify, and stop when their last observer goes, each on its own")
  func highSlots() {
    let model = WideModel()
    let seen = Recorder<String>()
    let low = model.observe(\.p1, options: .new) { _, change in seen.append("p1=\(change.newValue!)") }
    let high = model.observe(\.p64, options: .new) { _, change in seen.append("p64=\(change.newValue!)") }
    let higher = model.observe(\.p65, options: .new) { _, change in seen.append("p65=\(change.newValue!)") }
    model.p64 = 1
    model.p65 = 2
    model.p63 = 3  // shares the high bit, observed by nobody
    model.p1 = 4
    #expect(seen.elements == ["p64=1", "p65=2", "p1=4"])

    // One high key loses its observer; the other, sharing its bit, keeps its own.
    high.invalidate()
    model.p64 = 5
    model.p65 = 6
    #expect(seen.elements == ["p64=1", "p65=2", "p1=4", "p65=6"])

    higher.invalidate()
    model.p65 = 7
    model.p64 = 8
    model.p1 = 9
    #expect(seen.elements == ["p64=1", "p65=2", "p1=4", "p65=6", "p1=9"])
    #expect(model.p64 == 8 && model.p65 == 7, "unobserved writes still store")

    // Observed again after the shared bit was cleared.
    let again = model.observe(\.p65, options: .new) { _, change in seen.append("p65=\(change.newValue!)") }
    model.p65 = 10
    #expect(seen.elements.last == "p65=10")
    withExtendedLifetime((low, again)) {}
  }

  @Test("every key of a wide class has a slot and a string key")
  func stringKeys() throws {
    let model = WideModel()
    try model.setValue(11, forKey: "p65")
    #expect(model.p65 == 11)
    #expect(try model.value(forKey: "p64") as? Int == 0)
  }
}
