import EndpointKit
import Foundation

/// Upload and download progress of generated calls: the operations called inside
/// ``reporting(_:during:)`` report their bytes to the handler, as `URLSessionClient.download`'s
/// progress does (a generated client's methods take no progress parameter, so it travels with
/// the task instead).
///
/// ```swift
/// let export = try await OperationProgress.reporting({ print($0) }) {
///     try await api.downloadExport().ok.body.binary
/// }
/// ```
///
/// - Upload: a report for each chunk of the request body as it is read for sending, with the
///   total when the body's length is known.
/// - Download: a report for each chunk the generated code reads, with the total when the
///   answer's `Content-Length` tells it, so memory and progress move together.
public enum OperationProgress {
    @TaskLocal static var handler: (@Sendable (TransferProgress) -> Void)?

    /// Runs `body`, reporting the bytes of the generated calls it makes to `handler`, on the
    /// task reading the body or a library thread: keep it quick.
    public static func reporting<Result>(
        _ handler: @escaping @Sendable (TransferProgress) -> Void, during body: () async throws -> Result
    ) async rethrows -> Result {
        try await $handler.withValue(handler, operation: body)
    }
}
