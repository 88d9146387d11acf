import Foundation

extension TransferHandler {
    /// Where a streamed body goes: the chunks the reader iterates, and the bytes waiting for
    /// it (Foundation cannot pause a transfer, so a slow reader has a limit).
    struct Streaming: Sendable {
        let chunks: AsyncThrowingStream<Data, any Error>.Continuation
        let waiting: Locked<Int>
        let limit: Int
    }
}
