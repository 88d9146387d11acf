import Foundation

/// Renders the start of a body for error messages.
enum BodySnippet {
    /// How many characters of a body a message shows.
    static let length = 512

    static func describe(_ body: Data) -> String {
        if body.isEmpty { return "<empty body>" }
        guard let text = utf8Prefix(body.prefix(length * 4)) else {
            return "<\(body.count) bytes of binary data>"
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.count > length ? String(trimmed.prefix(length)) + "…" : trimmed
    }

    /// Decodes a prefix that may end inside a multi-byte character.
    private static func utf8Prefix(_ data: Data) -> String? {
        for cut in 0...min(3, data.count) {
            if let text = String(data: data.dropLast(cut), encoding: .utf8) { return text }
        }
        return nil
    }
}
