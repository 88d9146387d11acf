import EndpointKit
import NIOCore
import XCTest

@testable import EndpointKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a connection that could not be made reads: as one, whatever the socket's cause, so that
/// callers (and retry policies) know nothing was sent.
final class ConnectFailureTests: XCTestCase {
    private let url = URL(string: "http://192.0.2.7:8080/books")!

    /// No route to the host (a pod gone, an address no one holds) or its network: NIO words
    /// these as "connection reset (error set)", which read as a lost connection.
    func testNoWayToTheServerIsACouldNotConnect() throws {
        for (errno, words) in [(EHOSTUNREACH, "No route to host"), (ENETUNREACH, "Network is unreachable"), (ECONNREFUSED, "Connection refused")] {
            let error = AsyncHTTPClientTransport.translate(IOError(errnoCode: errno, reason: "connection reset (error set)"), url: url)
            let underlying = try XCTUnwrap(Self.urlError(error), "\(error)")
            XCTAssertEqual(underlying.code, .cannotConnectToHost, words)
            XCTAssertEqual(underlying.localizedDescription, "Could not connect to 192.0.2.7 port 8080: \(words)")
        }
    }

    /// A reset on a connection that was made is still a lost one: the request may have been sent.
    func testAResetConnectionIsStillLost() throws {
        for errno in [ECONNRESET, EPIPE] {
            let error = AsyncHTTPClientTransport.translate(IOError(errnoCode: errno, reason: "read(descriptor:pointer:size:)"), url: url)
            XCTAssertEqual(try XCTUnwrap(Self.urlError(error)).code, .networkConnectionLost, "\(errno)")
        }
    }

    private static func urlError(_ error: any Error) -> URLError? {
        guard case EndpointKitError.transportFailed(_, let underlying) = error else { return nil }
        return underlying as? URLError
    }
}
