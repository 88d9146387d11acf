import Foundation
import NIOCore

/// Makes the test server serve like a server with a few threads, as gunicorn's threaded
/// worker does: a request needs one of `workers` threads, from its first byte until its
/// response has been written and `serviceTime` more seconds have passed (the server's own work);
/// and a new connection takes a thread at once, which waits up to `firstDataTimeout` seconds
/// for the connection's first request before it goes back. A connection that a client opened
/// and left idle therefore holds a thread for that long, and requests behind it wait.
final class AcceptGate: Sendable {
    struct Counts: Sendable {
        /// Connections that held a thread until `firstDataTimeout` without sending a request.
        var idleTimeouts = 0
        /// The most connections that waited for a thread at once.
        var mostWaiting = 0
    }

    let firstDataTimeout: TimeInterval
    let serviceTime: TimeInterval
    let counts = Guarded(Counts())
    private let state: Guarded<(free: Int, waiting: [(id: ObjectIdentifier, grant: @Sendable () -> Void)])>

    init(workers: Int, firstDataTimeout: TimeInterval, serviceTime: TimeInterval = 0.002) {
        self.firstDataTimeout = firstDataTimeout
        self.serviceTime = serviceTime
        self.state = Guarded((workers, []))
    }

    /// Calls `grant` once a thread is free (at once if one is).
    fileprivate func acquire(_ id: ObjectIdentifier, grant: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.free > 0 {
                state.free -= 1
                return true
            }
            state.waiting.append((id, grant))
            let waiting = state.waiting.count
            counts.withLock { $0.mostWaiting = max($0.mostWaiting, waiting) }
            return false
        }
        if now { grant() }
    }

    /// Gives a thread back, or to the connection that waited longest.
    fileprivate func release() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().grant
        }
        next?()
    }

    /// A connection closed while waiting: it leaves the queue.
    fileprivate func leave(_ id: ObjectIdentifier) {
        state.withLock { $0.waiting.removeAll { $0.id == id } }
    }

    /// The handler that goes first in a connection's pipeline.
    func handler() -> Handler { Handler(gate: self) }

    /// Holds a connection's bytes until a thread takes them.
    final class Handler: ChannelDuplexHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = ByteBuffer

        private enum Phase {
            /// No thread, nothing to read.
            case idle
            /// Waiting for a thread.
            case queued
            /// A new connection's thread, waiting for its first request.
            case awaitingRequest
            /// A thread is serving a request.
            case serving
            /// The connection is closed.
            case closed
        }

        private let gate: AcceptGate
        private var phase = Phase.idle
        private var held: [ByteBuffer] = []
        private var timer: Scheduled<Void>?
        private var context: ChannelHandlerContext?

        init(gate: AcceptGate) {
            self.gate = gate
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func channelActive(context: ChannelHandlerContext) {
            queue(context: context)
            context.fireChannelActive()
        }

        private func queue(context: ChannelHandlerContext) {
            phase = .queued
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            let loop = context.eventLoop
            gate.acquire(ObjectIdentifier(self)) {
                loop.execute { bound.value.granted() }
            }
        }

        private func granted() {
            guard phase == .queued, let context, context.channel.isActive else {
                // Closed meanwhile: the thread goes back at once.
                gate.release()
                return
            }
            if !held.isEmpty { return serve(context: context) }
            phase = .awaitingRequest
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(gate.firstDataTimeout * 1e9))) {
                let handler = bound.value
                guard handler.phase == .awaitingRequest else { return }
                handler.gate.counts.withLock { $0.idleTimeouts += 1 }
                handler.phase = .idle
                handler.gate.release()
            }
        }

        private func serve(context: ChannelHandlerContext) {
            timer?.cancel()
            phase = .serving
            for buffer in held { context.fireChannelRead(wrapInboundOut(buffer)) }
            held = []
            context.fireChannelReadComplete()
        }

        /// The response went out: after the server's own work, the thread goes back.
        func responseEnded() {
            guard phase == .serving, let context else { return }
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .nanoseconds(Int64(gate.serviceTime * 1e9))) {
                let handler = bound.value
                guard handler.phase == .serving else { return }
                handler.phase = .idle
                handler.gate.release()
                if !handler.held.isEmpty, let context = handler.context { handler.queue(context: context) }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch phase {
            case .serving: context.fireChannelRead(data)
            case .queued, .closed: held.append(unwrapInboundIn(data))
            case .awaitingRequest:
                held.append(unwrapInboundIn(data))
                serve(context: context)
            case .idle:
                held.append(unwrapInboundIn(data))
                queue(context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            switch phase {
            case .queued: gate.leave(ObjectIdentifier(self))
            case .awaitingRequest, .serving:
                timer?.cancel()
                gate.release()
            case .idle, .closed: break
            }
            phase = .closed
            self.context = nil
            context.fireChannelInactive()
        }
    }
}
