// `import EndpointKit` alone brings in the Foundation types its API uses: `URL`, `Data`,
// `URLRequest`, `HTTPURLResponse`, `URLError`. On Linux the networking half of Foundation is a
// separate module, so without this every file that touches a request would need
// `#if canImport(FoundationNetworking)`.
@_exported import Foundation

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
