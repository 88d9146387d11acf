import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// What a ``ResponseReceiver`` keeps under its lock: what has come, and who waits for it.
extension ResponseReceiver {
    /// What the caller waits for.
    enum Waiter {
        case head(UnsafeContinuation<HTTPResponseHead, any Error>)
        case chunk(UnsafeContinuation<ByteBuffer?, any Error>)

        /// Resumes the caller with `error`.
        func fail(_ error: any Error) {
            switch self {
            case .head(let continuation): continuation.resume(throwing: error)
            case .chunk(let continuation): continuation.resume(throwing: error)
            }
        }
    }

    /// A head handed to the reader that waits for it.
    typealias HandedHead = (UnsafeContinuation<HTTPResponseHead, any Error>, HTTPResponseHead)
    /// A chunk handed to the reader that waits for it.
    typealias HandedChunk = (UnsafeContinuation<ByteBuffer?, any Error>, ByteBuffer)

    /// What has come of the response, and who waits for it.
    struct State {
        var task: HTTPClient.Task<Void>?
        var head: HTTPResponseHead?
        /// The chunks not read yet, and their bytes.
        var chunks = CircularBuffer<ByteBuffer>()
        var buffered = 0
        /// Completed when the reader has taken enough: the connection is read again.
        var demand: EventLoopPromise<Void>?
        /// `nil` while the response is arriving; then how it ended.
        var ending: Result<Void, any Error>?
        var waiter: Waiter?
        /// When the reader began to wait for a chunk (uptime, nanoseconds).
        var waitingSince: UInt64 = 0
        /// The idle check due next, cancelled at the end.
        var idleCheck: Scheduled<Void>?
        /// Where the request's time limit is watched, while it is.
        var limits: TimeLimitWatch?

        /// The next chunk to give the reader, if there is one to give now: for a body read
        /// whole up to `wholeLimit` bytes, only once the response has ended or more than that
        /// came (the reader then wakes once, not for each chunk).
        mutating func readyChunk(wholeLimit: Int?) -> ByteBuffer? {
            if withholds(wholeLimit: wholeLimit) { return nil }
            guard let chunk = chunks.popFirst() else { return nil }
            buffered -= chunk.readableBytes
            return chunk
        }

        /// Whether a body read whole up to `wholeLimit` bytes is still held back: until the
        /// response has ended or more than that came.
        func withholds(wholeLimit: Int?) -> Bool {
            guard let limit = wholeLimit else { return false }
            return ending == nil && buffered <= limit
        }

        /// The reader waiting for the head, and the head, once it is to be handed over: at once
        /// for a streamed body (`wholeLimit` `nil`); for a body read whole, with the body (one
        /// wake-up, not two).
        mutating func takeHeadWaiter(wholeLimit: Int?) -> HandedHead? {
            guard case .head(let continuation) = waiter, let head, !withholds(wholeLimit: wholeLimit) else { return nil }
            waiter = nil
            return (continuation, head)
        }

        /// The reader waiting for a chunk, and the chunk, once there is one to give it.
        mutating func takeChunkWaiter(wholeLimit: Int?) -> HandedChunk? {
            guard case .chunk(let continuation) = waiter, let chunk = readyChunk(wholeLimit: wholeLimit) else { return nil }
            waiter = nil
            return (continuation, chunk)
        }
    }
}
