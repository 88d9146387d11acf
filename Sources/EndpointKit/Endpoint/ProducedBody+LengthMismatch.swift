import Foundation

extension ProducedBody {
    /// The error a call fails with when its producer wrote another number of bytes than the
    /// body's ``ProducedBody/length`` said (the request is not sent whole).
    public struct LengthMismatch: Error, CustomStringConvertible {
        /// The length the body declared.
        public let declared: Int64
        /// The bytes the producer wrote, as far as they were read.
        public let produced: Int64

        /// Creates the error.
        public init(declared: Int64, produced: Int64) {
            self.declared = declared
            self.produced = produced
        }

        /// Says both numbers.
        public var description: String {
            "The request body's producer wrote \(produced > declared ? "more than" : "only") \(produced) of the \(declared) bytes its length declared"
        }
    }

    /// Throws ``LengthMismatch`` when `produced` bytes cannot be this body: past its length,
    /// or, once the producer has ended (`ended`), short of it. SPI for EndpointKit's clients.
    @_spi(Transport) public func check(produced: Int64, ended: Bool) throws {
        guard let length else { return }
        if produced > length || (ended && produced != length) {
            throw LengthMismatch(declared: length, produced: produced)
        }
    }
}
