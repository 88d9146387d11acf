import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one call sends and how its response becomes content: the part that differs between
/// plain, upload and download endpoints. SPI for EndpointKit's client packages.
@_spi(Transport) public struct Call<Content: Sendable>: Sendable {
    /// Where a response body goes.
    public enum Sink: Sendable {
        /// Into memory, for `content(from:with:)`.
        case memory
        /// Into a file: `resumableURL`, or a temporary file when `nil`.
        case file(resumableURL: URL?)
    }

    /// The endpoint's type; its name is made only for an error (making it costs time per call).
    let endpointType: any Any.Type
    let makeOutgoing: @Sendable () throws -> (Outgoing, MultipartFormData?)
    let sink: Sink
    let settings: any EndpointSettings
    let validate: @Sendable (URLRequest, HTTPURLResponse, Data?) throws -> Void
    let content: @Sendable (HTTPURLResponse, ReceivedResponse) throws -> Content
}
