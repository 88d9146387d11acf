import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Whether the request carries an `Idempotency-Key` field: the server runs a request with
    /// a given key once, however often it arrives (draft-ietf-httpapi-idempotency-key-header;
    /// Stripe's API and others), so sending it again is safe whatever its method.
    public var carriesIdempotencyKey: Bool {
        field(named: "Idempotency-Key") != nil
    }
}
