/// RFC 9110's token (5.6.2), what a header field's name and a request method are made of.
enum HTTPToken {
    /// The rule, in words, for error messages.
    static let rule = "letters, digits and !#$%&'*+-.^_`|~ only"

    /// Whether `text` is a token: at least one letter, digit or one of ``!#$%&'*+-.^_`|~``.
    static func isToken(_ text: String) -> Bool {
        // Over the bytes in place where the string has them so (a native one), else one by one.
        !text.isEmpty && (text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isTokenByte) } ?? text.utf8.allSatisfy(isTokenByte))
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
