import AsyncHTTPClient

extension ResponseReceiver {
    /// The reader's hold on a receiver: when the last one goes (the body read to the end, or
    /// not; a head that a timeout or a refusal left unread), the request is cancelled unless
    /// its response has ended. (AsyncHTTPClient holds the receiver itself until then.)
    final class Reader: Sendable {
        let receiver: ResponseReceiver

        init(_ receiver: ResponseReceiver) {
            self.receiver = receiver
        }

        deinit {
            receiver.cancel()
        }
    }
}
