/// One ``SettingDictionary`` kept for the next change, taken and put back
/// with one atomic exchange each, so that changes delivered to one
/// registration on several threads at once each get a dictionary of their
/// own.
struct ReusableSettingDictionary: ~Copyable {
  /// The kept buffer, retained, as its address; zero when none is kept.
  private let kept = AtomicUInt(0)

  init() {}

  deinit {
    if let pointer = UnsafeRawPointer(bitPattern: kept.load(ordering: .acquiring)) {
      Unmanaged<SettingDictionary>.fromOpaque(pointer).release()
    }
  }

  /// The kept buffer, now this caller's; `nil` when none is kept.
  func take() -> SettingDictionary? {
    guard let pointer = UnsafeRawPointer(bitPattern: kept.exchange(0, ordering: .acquiring)) else { return nil }
    return Unmanaged<SettingDictionary>.fromOpaque(pointer).takeRetainedValue()
  }

  /// Keeps `buffer` for the next change, unless another is kept already.
  func put(_ buffer: __owned SettingDictionary) {
    let handed = Unmanaged.passRetained(buffer)
    let address = UInt(bitPattern: handed.toOpaque())
    if !kept.compareExchange(expected: 0, desired: address, ordering: .releasing).exchanged {
      handed.release()
    }
  }
}
