import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives the session delegate's events for one task. ``SessionDelegate`` routes each task's
/// events to the handler registered for it; the methods run on the session's delegate queue.
protocol TaskHandler: AnyObject, Sendable {
    /// The response head arrived.
    func didReceive(response: URLResponse) -> URLSession.ResponseDisposition
    /// A piece of the body arrived.
    func didReceive(data: Data)
    /// Request body bytes were sent.
    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64)
    /// The task ended, with an error unless it succeeded.
    func didComplete(error: (any Error)?)
}

extension TaskHandler {
    func didReceive(response: URLResponse) -> URLSession.ResponseDisposition { .allow }
    func didReceive(data: Data) {}
    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {}
}
