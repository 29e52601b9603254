// Runs the compiler in a process of its own: where a test can start one.
#if os(macOS) || os(Linux) || os(Windows)
import Foundation
import Testing

/// The files of `Tests/CompileFailures`: code that must not compile, each
/// with the errors it must produce (see that folder's README).
private let compileFailures = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("CompileFailures")

private let refusedFiles: [String] = {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: compileFailures.path)) ?? []
  return names.filter { $0.hasSuffix(".swift") && !$0.hasSuffix("Control.swift") }.sorted()
}()

/// Type-checks `file` against the modules and macro plugin built next to
/// this test binary; returns the exit status and everything printed.
/// A file's first line `// compile-flags: …` adds those flags.
private func typecheck(_ file: String) throws -> (status: Int32, output: String) {
  let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let path = compileFailures.appendingPathComponent(file).path
  let firstLine = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
  let flags = firstLine.hasPrefix("// compile-flags: ")
    ? firstLine.dropFirst("// compile-flags: ".count).split(separator: " ").map(String.init) : []
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [
    "swiftc", "-typecheck", "-swift-version", "6",
    "-I", buildDirectory.appendingPathComponent("Modules").path,
    "-load-plugin-executable",
    buildDirectory.appendingPathComponent("KeyValueObservingMacros-tool").path + "#KeyValueObservingMacros",
  ] + flags + [path]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("Compile-time errors: misuse the compiler must refuse, with a message that names the fix")
struct CompileTimeErrorTests {
  @Test("the correct forms type-check, so the refusals below are the library's doing")
  func controlCompiles() throws {
    let (status, output) = try typecheck("Control.swift")
    #expect(status == 0, "\(output)")
  }

  @Test("each refused file fails with the promised errors", arguments: refusedFiles)
  func refused(_ file: String) throws {
    let source = try String(contentsOf: compileFailures.appendingPathComponent(file), encoding: .utf8)
    let expected = source.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: "// expected-error: ") else { return nil }
      return String(line[range.upperBound...])
    }
    #expect(!expected.isEmpty, "\(file) names no expected error")
    let (status, output) = try typecheck(file)
    #expect(status != 0, "\(file) compiled")
    // The compiler's own error lines, without the source it quotes around
    // them, which holds the `expected-error` comments themselves.
    let errors = output.split(separator: "\n").filter { $0.contains("error: ") && !$0.contains("expected-error") }
    // Each `expected-error` line is one error: a message named three
    // times must be given three times.
    for message in Set(expected) {
      let named = expected.count { $0 == message }
      // The located line only (in a file, or in a macro's expansion): the
      // compiler repeats each error under the source line it quotes.
      let given = errors.count { ($0.contains(".swift:") || $0.hasPrefix("macro expansion @")) && $0.contains(message) }
      #expect(given >= named, "\(file): \(given) errors containing \"\(message)\", \(named) expected, in:\n\(output)")
    }
    // A file that says so must produce no error beyond those it names: no
    // cascade after the error it promises.
    if source.contains("\n// no other errors\n") {
      let others = errors.filter { error in !expected.contains { error.contains($0) } }
      #expect(others.isEmpty, "\(file): errors beyond those named:\n\(others.joined(separator: "\n"))")
    }
  }
}
#endif
