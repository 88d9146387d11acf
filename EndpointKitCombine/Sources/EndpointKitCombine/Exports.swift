// `import EndpointKitCombine` alone is enough to use the publishers: `AnyCancellable`, `sink`
// and the other operators come with it, from Apple's Combine where it exists and from
// OpenCombine (the same API) elsewhere, so one source builds on Linux and Apple platforms.
#if canImport(Combine)
    @_exported import Combine
#else
    @_exported import OpenCombine
#endif
