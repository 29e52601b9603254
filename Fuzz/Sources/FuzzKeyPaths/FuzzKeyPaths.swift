import KeyValueObserving

/// A node of the object graph the fuzzer walks: every kind of property a
/// string key path can name.
@KeyValueObservable
final class Node {
  var name = "node"
  var count = 0
  var ratio = 0.5
  var flag = false
  var tags: [String] = []
  var ids: Set<Int> = []
  var nickname: String?
  var next: Node?
  var plain = Plain()
  let id = 7
  var summary: String { "\(name) \(count)" }
  @KeyValueIgnored var scratch = 0
}

/// A class the macro does not touch, as a link.
final class Plain {
  var value = 1
}

/// A classic observer that reads everything it is given.
final class Sink: KeyValueObserver {
  var seen = 0

  func observeValue(
    forKeyPath keyPath: String,
    of object: AnyObject,
    change: [KeyValueChangeKey: Any],
    context: UnsafeMutableRawPointer?
  ) {
    seen += change.count + keyPath.utf8.count
  }
}

/// The values the fuzzer can try to set, by the input's first byte.
func value(for selector: UInt8, text: String) -> Any? {
  switch selector % 10 {
  case 0: nil
  case 1: text
  case 2: Int(selector)
  case 3: Double(selector) / 3
  case 4: selector.isMultiple(of: 2)
  case 5: [text, text]
  case 6: Set([Int(selector)])
  case 7: Node()
  case 8: Optional<String>.none as Any
  default: Plain()
  }
}

/// One input: the first byte picks an operation and a value, the rest is a
/// key path string (any bytes, decoded leniently). Nothing may crash: every
/// bad key path is a thrown `KeyValueCodingError` or a harmless `false`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let selector = bytes[0]
  let path = String(decoding: bytes.dropFirst(), as: UTF8.self)
  let root = Node()
  root.next = Node()
  root.next?.next = Node()
  let sink = Sink()
  KeyValueObservingDiagnostic.withHandler({ _ in }) {
    _ = try? root.value(forKeyPath: path)
    _ = try? root.value(forKey: path)
    try? root.setValue(value(for: selector, text: path), forKeyPath: path)
    try? root.setValue(value(for: selector &+ 1, text: path), forKey: path)
    let options = KeyValueObservingOptions(rawValue: Int(selector) & 0xF)
    if (try? root.addObserver(sink, forKeyPath: path, options: options)) != nil {
      try? root.setValue(value(for: selector &+ 2, text: path), forKeyPath: path)
      root.next?.name = path
      root.next = Node()
      _ = root.removeObserver(sink, forKeyPath: path)
    }
    _ = root.removeObserver(sink, forKeyPath: path)
    try? root.willChangeValue(forKey: path)
    try? root.didChangeValue(forKey: path)
  }
  return 0
}

/// libFuzzer's driver, linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The executable's entry point, which SwiftPM names after the target: it
/// hands the command line to libFuzzer's driver.
@_cdecl("FuzzKeyPaths_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runFuzzerDriver(&count, &arguments, fuzz)
}
