/// An endpoint that reads no more of an answer's head than its status code: the default
/// validation (a 2xx status) and content made of the body alone, as ``Request`` has unless it
/// is given a ``Request/validation``. Its call then never asks for a Foundation response, so
/// a transport that does not speak Foundation (AsyncHTTPClient's) never builds one unless
/// something else asks (a monitor, the observer, the cache, a failure's error): Foundation on
/// Linux spends about 1.2 µs a header field building an `HTTPURLResponse`, most of what a small
/// call costs.
protocol StatusOnlyEndpoint {
    /// Whether this endpoint reads only the status code.
    var readsStatusOnly: Bool { get }
}
