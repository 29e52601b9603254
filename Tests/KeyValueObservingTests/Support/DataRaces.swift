import Foundation

/// Runs `body` with the thread sanitizer's reports on reads turned off on
/// this thread, when the tests run under it; just runs it otherwise.
///
/// For a model whose getter deliberately reads what another thread writes
/// (the user's own data race, which the library documents): the library's
/// state outside `body` is still checked.
func ignoringDataRaces<Result>(_ body: () -> Result) -> Result {
  guard let begin = sanitizerHooks.begin, let end = sanitizerHooks.end else { return body() }
  begin(#file, #line)
  defer { end(#file, #line) }
  return body()
}

/// Whether the tests run under the thread sanitizer.
let isUnderThreadSanitizer = sanitizerHooks.begin != nil

private typealias Annotation = @convention(c) (UnsafePointer<CChar>?, Int32) -> Void

/// The thread sanitizer's `AnnotateIgnoreReadsBegin`/`End`, when it is
/// loaded.
private let sanitizerHooks: (begin: Annotation?, end: Annotation?) = {
  let handle = dlopen(nil, RTLD_NOW)
  func load(_ name: String) -> Annotation? {
    dlsym(handle, name).map { unsafeBitCast($0, to: Annotation.self) }
  }
  return (load("AnnotateIgnoreReadsBegin"), load("AnnotateIgnoreReadsEnd"))
}()
