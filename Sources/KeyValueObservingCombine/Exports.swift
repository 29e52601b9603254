// One import gives a file the whole Combine face of the library: the core,
// and the Combine API its publishers compose with — Apple's Combine where the
// system has it, OpenCombine elsewhere, so that the same code (`sink`,
// `assign(to:on:)`, `AnyCancellable`) builds on every platform.
@_exported public import KeyValueObserving

#if canImport(Combine)
  @_exported public import Combine
#elseif OpenCombine
  @_exported public import OpenCombine
#else
  #error(
    "KeyValueObservingCombine needs OpenCombine on this platform: depend on the package with its default traits, or with traits: [\"OpenCombine\"]"
  )
#endif
