/// Sends the `.initial` notification of a registration just made: every
/// kind of registration (closures, hooked closures, derived keys, classic
/// observers) sends it here, once, before the call that registered returns.
///
/// Nothing is sent unless `options` asks for `.initial` and the
/// registration is still live (a deinitialising object, or another thread,
/// may have ended it already). The change is a setting that carries the
/// current value when `.new` was asked for, and no old value.
@inlinable
func sendInitial<Value>(
  options: KeyValueObservingOptions,
  isLive: @autoclosure () -> Bool,
  value: @autoclosure () -> Value,
  to send: (KeyValueObservedChange<Value>) -> Void
) {
  guard options.contains(.initial), isLive() else { return }
  send(KeyValueObservedChange(kind: .setting, newValue: value(), oldValue: nil, isPrior: false, trimmedTo: options))
}
