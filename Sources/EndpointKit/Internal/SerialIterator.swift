import Foundation

/// An async iterator that several tasks may hold but one reads at a time, as the stream that
/// wraps it asks (`AsyncThrowingStream(unfolding:)` awaits each element before it asks for the
/// next). The iterator sits in a ``Locked`` box and is taken out for each read, so this type
/// needs no unchecked `Sendable` of its own. SPI (`@_spi(Locking) import EndpointKit`).
/// Inlinable, as ``Locked`` is: the client packages read their bodies through it, and
/// specialised there for their iterator it makes no generic metadata lookups for each chunk.
@_spi(Locking) public final class SerialIterator<Base: AsyncIteratorProtocol>: Sendable {
    @usableFromInline let base: Locked<Base?>

    /// Reads from `base`.
    @inlinable public init(_ base: Base) {
        self.base = Locked(base)
    }

    /// The next element; `nil` at the end, after a failure (the error is thrown once), or for
    /// a read made while another is under way.
    @inlinable public func next() async throws -> Base.Element? {
        guard var iterator = base.take() else { return nil }
        let element = try await iterator.next()
        base.withLock { $0 = iterator }
        return element
    }
}
