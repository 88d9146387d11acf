import EndpointKit

/// A call's endpoint name (its ``EndpointKit/CallContext/endpoint``), made only when a log
/// handler writes it.
struct EndpointName: CustomStringConvertible, Sendable {
    let call: CallContext
    var description: String { call.endpoint }
}
