import EndpointKit

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

extension Client {
    /// A publisher that runs `endpoint` when the subscriber first asks for a value, then sends
    /// its content and finishes, or fails with the call's error. Cancelling the subscription
    /// cancels the request (the connection closes). Each subscription makes its own request.
    public func requestPublisher<T: Endpoint>(_ endpoint: T) -> TaskPublisher<T.Content> {
        TaskPublisher { emitter in try await emitter.send(try await self.request(endpoint)) }
    }

    /// A publisher that sends an upload endpoint's body when the subscriber first asks:
    /// ``TransferEvent/progress(_:)`` events as bytes go out, then ``TransferEvent/completed(_:)``.
    public func uploadPublisher<T: UploadEndpoint>(_ endpoint: T) -> TaskPublisher<TransferEvent<T.Content>> {
        TaskPublisher { emitter in
            let content = try await self.upload(endpoint) { progress in
                if progress.direction == .upload { emitter.offer(.progress(progress)) }
            }
            try await emitter.send(.completed(content))
        }
    }

    /// A publisher that downloads to a file when the subscriber first asks:
    /// ``TransferEvent/progress(_:)`` events as bytes arrive, then ``TransferEvent/completed(_:)``.
    public func downloadPublisher<T: DownloadEndpoint>(_ endpoint: T) -> TaskPublisher<TransferEvent<T.Content>> {
        TaskPublisher { emitter in
            let content = try await self.download(endpoint) { progress in
                if progress.direction == .download { emitter.offer(.progress(progress)) }
            }
            try await emitter.send(.completed(content))
        }
    }
}
