import Foundation

extension URL {
    /// The URL with the `.` and `..` segments of its path resolved (RFC 3986, 5.2.4), as
    /// libcurl, and so `URLSessionClient`, sends it: `a/./b/../c` asks for `a/c` with either
    /// client. AsyncHTTPClient sends a path as it is written. The query is left as it is.
    var removingDotSegments: URL {
        absoluteString.contains("/.") ? standardized : self
    }
}
