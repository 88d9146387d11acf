import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening socket on 127.0.0.1 that never accepts, its accept queue filled: the kernel
/// drops further SYNs, so a new connection neither succeeds nor is refused.
final class BlackHoleListener {
    private var sockets: [Int32] = []
    let url: URL

    init() throws {
        let listener = socket(AF_INET, Self.streamType, 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        sockets.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 0) == 0 else { throw POSIXError(.EIO) }
        let port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the queue: with a backlog of 0 the kernel completes one or two handshakes.
        for _ in 0..<4 {
            let filler = socket(AF_INET, Self.streamType | Self.nonBlocking, 0)
            sockets.append(filler)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        usleep(100_000)
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    func close() {
        #if canImport(Glibc)
            for socket in sockets { _ = Glibc.close(socket) }
        #else
            for socket in sockets { _ = Darwin.close(socket) }
        #endif
        sockets = []
    }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        private static let nonBlocking = Int32(SOCK_NONBLOCK.rawValue)
    #else
        private static let streamType = SOCK_STREAM
        private static let nonBlocking: Int32 = 0
    #endif
}
