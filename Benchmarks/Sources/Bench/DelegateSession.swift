import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw URLSession the way any client that needs progress, size limits or streaming must use
/// it: a session delegate that gathers each task's chunks. A baseline for the delegate's cost.
final class DelegateSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var bodies: [Int: Data] = [:]
    private var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
    private(set) var session: URLSession!

    override init() {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: .endpointKitDefault, delegate: self, delegateQueue: queue)
    }

    func data(from url: URL) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: url)
            lock.lock()
            waiting[task.taskIdentifier] = continuation
            lock.unlock()
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        bodies[dataTask.taskIdentifier, default: Data()].append(data)
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let body = bodies.removeValue(forKey: task.taskIdentifier) ?? Data()
        let continuation = waiting.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        if let error { continuation?.resume(throwing: error) } else { continuation?.resume(returning: body) }
    }
}
