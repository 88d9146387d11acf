/// RFC 9110's token (5.6.2), what a header field's name and a request method are made of.
enum HTTPToken {
    /// The rule, in words, for error messages.
    static let rule = "letters, digits and !#$%&'*+-.^_`|~ only"

    /// Whether `text` is a token: at least one letter, digit or one of ``!#$%&'*+-.^_`|~``.
    static func isToken(_ text: String) -> Bool {
        // Over the bytes in place where the string has them so (a native one), else one by one.
        !text.isEmpty && (text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isTokenByte) } ?? text.utf8.allSatisfy(isTokenByte))
    }

    /// Whether two field names are the same, compared as field names are, without regard to
    /// ASCII case (RFC 9110, 5.1): byte by byte, with no lowercased copy of either, as
    /// Foundation's `value(forHTTPHeaderField:)` makes of every field it has.
    static func sameName(_ name: String, _ other: String) -> Bool {
        name.utf8.count == other.utf8.count && zip(name.utf8, other.utf8).allSatisfy { lowered($0) == lowered($1) }
    }

    /// `byte`, an ASCII capital made small.
    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
