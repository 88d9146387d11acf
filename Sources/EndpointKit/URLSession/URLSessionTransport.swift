import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends through a client's own `URLSession`, one task per send, its events routed by the
/// session delegate to a ``TransferHandler``.
struct URLSessionTransport: Transport {
    let session: URLSession
    let delegate: SessionDelegate

    var isOpen: Bool { delegate.isOpen }

    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        if case .produced = outgoing.body {
            return try await sendReadingBody(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
        }
        let handler = TransferHandler(
            outgoing: outgoing, file: file, bodyLimit: bodyLimit, delegate: delegate, progress: progress)
        return try await run(handler, outgoing, timeout: timeout)
    }

    /// Sends `outgoing` with its ``ProducedBody`` read first, and deletes the temporary file
    /// that may hold it once the call ends. Apart from ``send(_:into:timeout:bodyLimit:progress:)``,
    /// so that what it keeps takes room in a call's task only when there is a body to read.
    @inline(never)
    private func sendReadingBody(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int, progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        let (outgoing, bodyFile) = try await outgoing.readingProducedBody()
        defer { if let bodyFile { try? FileManager.default.removeItem(at: bodyFile) } }
        return try await send(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
    }

    /// Runs `handler`'s task until it completes (or, streaming, until the head arrives), within
    /// `timeout`: past it the task is cancelled and the attempt times out.
    private func run(_ handler: TransferHandler, _ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ReceivedResponse {
        guard let timeout else { return try await run(handler, outgoing) }
        return try await run(handler, outgoing, within: timeout)
    }

    /// Runs `handler`'s task as ``run(_:_:)`` does, cancelled past `timeout`. Apart, so that the
    /// timer's state takes room in a call's task only when the call has a time limit.
    @inline(never)
    private func run(_ handler: TransferHandler, _ outgoing: Outgoing, within timeout: TimeInterval) async throws -> ReceivedResponse {
        try await AttemptTimeout.run(timeout, url: outgoing.request.url) { [self] in try await run(handler, outgoing) }
    }

    /// Runs `handler`'s task until it completes (or, streaming, until the head arrives).
    private func run(_ handler: TransferHandler, _ outgoing: Outgoing) async throws -> ReceivedResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                handler.onCompletion { continuation.resume(with: $0) }
                do {
                    try InvalidHeaderField.checkFields(of: outgoing.request)
                    let task = try delegate.register(handler, for: outgoing, in: session)
                    if handler.start(task) {
                        task.resume()
                    } else {
                        delegate.unregister(task)
                        delegate.cancel(task)
                    }
                } catch {
                    handler.finish(.failure(error))
                }
            }
        } onCancel: {
            handler.cancel()
        }
    }
}

extension URLSessionTransport {
    /// How many streamed bytes may wait for a slow reader: Foundation cannot pause a transfer.
    static let streamBufferLimit = 16 << 20

    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        let (outgoing, bodyFile) = try await outgoing.readingProducedBody()
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let waiting = Locked(0)
        let handler = TransferHandler(
            outgoing: outgoing, file: nil, bodyLimit: .max, delegate: delegate, progress: nil,
            streaming: .init(chunks: continuation, waiting: waiting, limit: Self.streamBufferLimit))
        continuation.onTermination = { termination in
            // A reader that stops early cancels the task. A finished body needs no cancel: its
            // task has ended, or all of its declared length has come (and the connection goes
            // back to the pool).
            if case .cancelled = termination { handler.cancel() }
            if let bodyFile { try? FileManager.default.removeItem(at: bodyFile) }
        }
        let head: ReceivedResponse
        do {
            head = try await run(handler, outgoing, timeout: timeout)
        } catch {
            continuation.finish(throwing: error)
            throw error
        }
        if let timeout { handler.watchIdle(timeout) }
        return ResponseStream(response: head.response, chunks: chunks) { count in waiting.withLock { $0 -= count } }
    }
}
