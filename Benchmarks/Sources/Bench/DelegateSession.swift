@_spi(Locking) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw URLSession the way any client that needs progress, size limits or streaming must use
/// it: a session delegate that gathers each task's chunks. A baseline for the delegate's cost.
struct DelegateSession: Sendable {
    private let gatherer = Gatherer()
    private let session: URLSession

    init() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: .endpointKitDefault, delegate: gatherer, delegateQueue: queue)
    }

    func data(from url: URL) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: url)
            gatherer.state.update { $0.waiting[task.taskIdentifier] = continuation }
            task.resume()
        }
    }
}

/// The session delegate: each task's chunks, and who waits for them.
private final class Gatherer: NSObject, URLSessionDataDelegate, Sendable {
    struct State {
        var bodies: [Int: Data] = [:]
        var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
    }

    let state = Locked(State())

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.update { $0.bodies[dataTask.taskIdentifier, default: Data()].append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        var taken: (Data, CheckedContinuation<Data, any Error>?) = (Data(), nil)
        state.update { state in
            taken = (state.bodies.removeValue(forKey: task.taskIdentifier) ?? Data(), state.waiting.removeValue(forKey: task.taskIdentifier))
        }
        if let error { taken.1?.resume(throwing: error) } else { taken.1?.resume(returning: taken.0) }
    }
}
