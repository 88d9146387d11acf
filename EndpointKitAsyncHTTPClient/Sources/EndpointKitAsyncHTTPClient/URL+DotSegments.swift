import Foundation

extension URL {
    /// The URL with the `.` and `..` segments of its path resolved (RFC 3986, 5.2.4), as
    /// libcurl, and so `URLSessionClient`, sends it: `a/./b/../c` asks for `a/c` with either
    /// client. AsyncHTTPClient sends a path as it is written. The query is left as it is.
    var removingDotSegments: URL {
        // Read as bytes: `String.contains(_:)` goes through Foundation's `range(of:)`, about
        // 0.6 µs on Linux, and every request asks.
        var afterSlash = false
        for byte in absoluteString.utf8 {
            if afterSlash, byte == UInt8(ascii: ".") { return standardized }
            afterSlash = byte == UInt8(ascii: "/")
        }
        return self
    }
}
