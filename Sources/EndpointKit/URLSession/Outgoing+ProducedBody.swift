import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Outgoing {
    /// This, with a ``ProducedBody`` read to its end first, since a `URLSession` task cannot be
    /// handed bytes once it runs: into memory up to ``inMemoryFileLimit``, into a temporary file
    /// past it. Returns the file too, for the caller to delete when the call ends.
    func readingProducedBody() async throws -> (Outgoing, temporaryFile: URL?) {
        guard case .produced(let produced) = body else { return (self, nil) }
        return try await reading(produced)
    }

    /// This, with `produced` read to its end. Apart, so that its state takes room in a call's
    /// task only when there is a body to read.
    @inline(never)
    private func reading(_ produced: ProducedBody) async throws -> (Outgoing, temporaryFile: URL?) {
        var read = self
        var data = Data()
        var file: (url: URL, handle: FileHandle)?
        var count: Int64 = 0
        do {
            for try await chunk in try produced.chunks() {
                count += Int64(chunk.count)
                try produced.check(produced: count, ended: false)
                if let file {
                    try file.handle.write(contentsOf: chunk)
                    continue
                }
                data.append(chunk)
                if data.count > Self.inMemoryFileLimit {
                    let url = FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKit-\(UUID().uuidString).body")
                    guard FileManager.default.createFile(atPath: url.path, contents: data) else {
                        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                    }
                    file = (url, try FileHandle(forWritingTo: url))
                    try file?.handle.seekToEnd()
                    data = Data()
                }
            }
            // A cancelled task ends the stream early: what was read is not the whole body.
            try Task.checkCancellation()
            try produced.check(produced: count, ended: true)
            try file?.handle.close()
        } catch {
            try? file?.handle.close()
            if let url = file?.url { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        read.body = file.map { .file($0.url) } ?? .data(data)
        return (read, file?.url)
    }
}
