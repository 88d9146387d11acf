import Foundation

extension URL {
    /// The URL with the `.` and `..` segments of its path resolved (RFC 3986, 5.2.4), as
    /// libcurl, and so `URLSessionClient`, sends it: `a/./b/../c` asks for `a/c` with either
    /// client. AsyncHTTPClient sends a path as it is written. The query is left as it is.
    var removingDotSegments: URL {
        // Read as contiguous bytes: `String.contains(_:)` goes through Foundation's
        // `range(of:)`, about 0.6 µs on Linux, and every request asks; iterating the string's
        // UTF-8 view costs several times more instructions than its buffer.
        var text = absoluteString
        let dotted = text.withUTF8 { bytes in
            var afterSlash = false
            for byte in bytes {
                if afterSlash, byte == UInt8(ascii: ".") { return true }
                afterSlash = byte == UInt8(ascii: "/")
            }
            return false
        }
        return dotted ? standardized : self
    }
}
