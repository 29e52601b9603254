/// The registration of a classic observer on a stored key: it turns each
/// typed change into a change dictionary.
@usableFromInline
final class ClassicRegistration: _KeyValueErasedRegistration, @unchecked Sendable {
  // @unchecked Sendable: immutable apart from what the base class guards.
  let target: ClassicObserverTarget

  /// Whether the key's values are of an optional type, which the
  /// dictionary unwraps; asked once.
  let valueIsOptional: Bool

  /// The dictionary the last setting was delivered in, emptied, for the
  /// next one.
  private let settingDictionary = ReusableSettingDictionary()

  init(target: ClassicObserverTarget, slot: Int, valueType: Any.Type) {
    self.target = target
    self.valueIsOptional = valueType is any OptionalValue.Type
    super.init(options: target.options, slot: slot, receiver: .dictionary)
  }

  /// Builds the dictionary of a change whose values the notification loop boxed,
  /// and hands it to the observer.
  @usableFromInline
  override func receive(
    kind: KeyValueChange,
    oldValue: UnsafePointer<Any?>,
    newValue: UnsafePointer<Any?>,
    indexRanges: IndexRanges?,
    isPrior: Bool,
    from object: AnyObject,
    slot _: Int,
    valuesAreEqual _: Bool
  ) {
    guard kind == .setting, !isPrior, indexRanges == nil else {
      let change = changeDictionary(
        kind: kind, newValue: newValue.copiedBox, oldValue: oldValue.copiedBox, indexRanges: indexRanges, isPrior: isPrior,
        isInitial: false, options: options, mayBeOptional: valueIsOptional
      )
      target.send(change, from: object)
      return
    }
    // A setting, the common change: its dictionary is kept between changes.
    let buffer = settingDictionary.take() ?? SettingDictionary(options: options)
    buffer.fill(newValue: newValue.copiedBox, oldValue: oldValue.copiedBox, mayBeOptional: valueIsOptional)
    target.send(buffer.dictionary, from: object)
    buffer.empty()
    settingDictionary.put(buffer)
  }

  override var observerDescription: String { target.description }

  override var observerSource: ObserverSource { .classic(target) }
}
