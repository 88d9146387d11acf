import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one attempt last sent and what came back: what the retriers are asked about when it
/// failed. Kept by the pipeline's loop, apart from the events, which only report.
struct AttemptRecord {
    /// The last request sent (after the adapters, or a redirect's), or the built one.
    var request: URLRequest?
    /// The answer, when one came (a stream's head, with a refused stream's body).
    var received: ReceivedResponse?
}
