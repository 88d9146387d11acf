import Foundation

/// Percent-encodes a path or a query written by hand, keeping the escapes it already holds: an
/// ID its caller escaped (`a%2Fb`) reaches the server as written, not escaped twice (`a%252Fb`,
/// another ID). A `%` that starts no escape (`50% off`) is escaped itself: `URLComponents`
/// kills the process when given one as a percent-encoded part.
enum WrittenEscapes {
    /// `text` with every byte that `allowed` (ASCII, without `%`) does not hold escaped,
    /// and its `%` escapes kept.
    static func encode(_ text: Substring, allowed: CharacterSet) -> String {
        let bytes = Array(text.utf8)
        var encoded = [UInt8]()
        encoded.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                encoded.append(byte)
            } else if byte < 0x80, byte != UInt8(ascii: "%"), allowed.contains(Unicode.Scalar(byte)) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}
