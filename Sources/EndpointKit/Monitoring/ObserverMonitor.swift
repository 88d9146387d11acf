import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``ResponseObserver`` closure as a monitor: told each retried attempt (as
/// ``EndpointKitError/retrying(attempt:delay:underlying:)``) and the call's outcome, once.
struct ObserverMonitor: CallMonitor {
    let observer: ResponseObserver

    func retryScheduled(_ event: RetryScheduled) {
        observer(
            event.request, event.response, event.body,
            EndpointKitError.retrying(attempt: event.call.attempt, delay: event.delay, underlying: event.reason))
    }

    func callFinished(_ event: CallFinished) {
        observer(event.request, event.response, event.body, event.error)
    }
}
