/// Hands a value to other threads or tasks that the benchmark knows use it
/// safely: each thread its own object, or one task at a time.
public struct UncheckedSendable<Value>: @unchecked Sendable {
  public var value: Value
  public init(_ value: Value) { self.value = value }
}
