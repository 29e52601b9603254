import KeyValueObserving
import Testing

/// The old value is read only when some registration on the key asked for
/// `.old` or `.prior`. `Parcel.payload` holds a `Marker` that is freed the
/// moment nothing holds the old payload, so a callback can see whether the
/// setter kept a copy.
@Suite("Old values are captured only when asked for")
struct OldValueCaptureTests {
  @Test("without .old or .prior the old value is not kept")
  func notCaptured() {
    let parcel = Parcel()
    weak let oldMarker = parcel.payload.marker
    let aliveInCallback = Recorder<Bool>()
    let token = parcel.observe(\.payload, options: .new) { _, _ in
      aliveInCallback.append(oldMarker != nil)
    }
    parcel.payload = Payload(marker: Marker())
    #expect(aliveInCallback.elements == [false])
    _ = token
  }

  @Test(".old keeps the old value alive for the callback")
  func capturedForOld() {
    let parcel = Parcel()
    weak let oldMarker = parcel.payload.marker
    let aliveInCallback = Recorder<Bool>()
    let token = parcel.observe(\.payload, options: .old) { _, change in
      aliveInCallback.append(oldMarker != nil && change.oldValue?.marker === oldMarker)
    }
    parcel.payload = Payload(marker: Marker())
    #expect(aliveInCallback.elements == [true])
    #expect(oldMarker == nil, "and releases it after delivery")
    _ = token
  }

  @Test(".prior without .old does not keep the old value: its notifications carry none")
  func notCapturedForPriorAlone() {
    let parcel = Parcel()
    weak let oldMarker = parcel.payload.marker
    let aliveInCallback = Recorder<Bool>()
    let token = parcel.observe(\.payload, options: .prior) { _, change in
      #expect(change.oldValue == nil)
      if !change.isPrior { aliveInCallback.append(oldMarker != nil) }
    }
    parcel.payload = Payload(marker: Marker())
    #expect(aliveInCallback.elements == [false])
    _ = token
  }

  @Test("once the observer that wanted .old is gone, old values are no longer kept")
  func stopsCapturingAfterInvalidate() {
    let parcel = Parcel()
    let wantsOld = parcel.observe(\.payload, options: .old) { _, _ in }
    wantsOld.invalidate()
    weak let oldMarker = parcel.payload.marker
    let aliveInCallback = Recorder<Bool>()
    let token = parcel.observe(\.payload) { _, _ in aliveInCallback.append(oldMarker != nil) }
    parcel.payload = Payload(marker: Marker())
    #expect(aliveInCallback.elements == [false])
    _ = token
  }
}
