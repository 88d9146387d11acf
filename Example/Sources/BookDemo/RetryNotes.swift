import EndpointKit
import Foundation

/// Says on standard error when a call is sent again, and why, so that a slow or failing server
/// (with `--base-url`) shows what is happening instead of a silent wait: the book client
/// retries, each attempt for up to 30 s. (`--verbose` logs every attempt instead.)
struct RetryNotes: CallMonitor {
    let output: Output

    func retryScheduled(_ event: RetryScheduled) {
        let delay = String(format: "%.1f", event.delay)
        output.note("\(event.call.endpoint): attempt \(event.call.attempt) failed (\(Self.reason(event.reason))); trying again in \(delay) s")
    }

    /// Why an attempt failed, short: the status of an answer, or what went wrong on the way.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case EndpointKitError.unacceptableStatus(let failure): "HTTP \(failure.statusCode)"
        case let error as EndpointKitError: error.description
        default: Output.message(for: error)
        }
    }
}
