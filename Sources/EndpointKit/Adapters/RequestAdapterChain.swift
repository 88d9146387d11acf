import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs several adapters in order, each on the previous one's result.
///
/// An adapter's error fails the chain with ``EndpointKitError/requestAdapterFailed(adapter:underlying:)``
/// naming that adapter's type.
public struct RequestAdapterChain: RequestAdapter {
    /// The adapters, in the order they run.
    public let adapters: [any RequestAdapter]

    /// Creates a chain that runs `adapters` in order.
    public init(_ adapters: [any RequestAdapter]) {
        self.adapters = adapters
    }

    /// Runs every adapter in order.
    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        for adapter in adapters {
            request = try await RequestAdapterChain.run(adapter, on: request)
        }
        return request
    }

    /// The adapters that also decide retries (such as ``AuthenticatingAdapter``), found in
    /// `adapter` and, for a chain, among its adapters.
    static func retriers(in adapter: any RequestAdapter) -> [any RequestRetrier] {
        if let chain = adapter as? RequestAdapterChain { return chain.adapters.flatMap(retriers(in:)) }
        return (adapter as? any RequestRetrier).map { [$0] } ?? []
    }

    /// The ``BaseRequestAdapter`` that runs before any other adapter in `adapter`, if one does.
    static func leadingBase(in adapter: any RequestAdapter) -> BaseRequestAdapter? {
        if let base = adapter as? BaseRequestAdapter { return base }
        return (adapter as? RequestAdapterChain)?.adapters.first.flatMap(leadingBase(in:))
    }

    /// What `adapter` does after its leading ``BaseRequestAdapter``, once that has been applied:
    /// nothing (`nil`) for a base adapter alone, the rest of a chain that starts with one; any
    /// other shape whole (its base then runs again and finds nothing left to do). Each attempt of
    /// a call runs this much: without an adapter of its own, an attempt is not suspended to adapt.
    static func afterBase(in adapter: any RequestAdapter) -> (any RequestAdapter)? {
        if adapter is BaseRequestAdapter { return nil }
        guard let chain = adapter as? RequestAdapterChain, chain.adapters.first is BaseRequestAdapter else { return adapter }
        let rest = Array(chain.adapters.dropFirst())
        return rest.count > 1 ? RequestAdapterChain(rest) : rest.first
    }

    /// Runs one adapter, naming it in any error it throws. Cancellation passes through.
    static func run(_ adapter: any RequestAdapter, on request: URLRequest) async throws -> URLRequest {
        do {
            return try await adapter.adapt(request)
        } catch let error as CancellationError {
            throw error
        } catch EndpointKitError.requestAdapterFailed(let name, let underlying) {
            throw EndpointKitError.requestAdapterFailed(adapter: name, underlying: underlying)
        } catch {
            throw EndpointKitError.requestAdapterFailed(
                adapter: String(describing: type(of: adapter)), underlying: error)
        }
    }
}
