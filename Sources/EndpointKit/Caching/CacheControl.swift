import Foundation

/// The directives of a `Cache-Control` field (RFC 9111, 5.2; RFC 5861), of a request or of a
/// response. Unknown directives are ignored; a `max-age` or `s-maxage` that is not a number
/// counts as 0 (stale), as the RFC asks.
struct CacheControl {
    var noStore = false
    var noCache = false
    var mustRevalidate = false
    var isPublic = false
    var isPrivate = false
    var onlyIfCached = false
    var maxAge: TimeInterval?
    var sharedMaxAge: TimeInterval?
    /// `max-stale` of a request; without a value, any staleness (`.infinity`).
    var maxStale: TimeInterval?
    var minFresh: TimeInterval?
    var staleWhileRevalidate: TimeInterval?
    var staleIfError: TimeInterval?

    /// The directives of `field`; none when `nil`. `pragma` is a request's `Pragma`, read only
    /// when it has no `Cache-Control` (RFC 9111, 5.4).
    init(_ field: String?, pragma: String? = nil) {
        guard let field else {
            noCache = pragma?.lowercased().contains("no-cache") == true
            return
        }
        for (name, value) in Self.directives(field) {
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "only-if-cached": onlyIfCached = true
            case "max-age": maxAge = Self.seconds(value) ?? 0
            case "s-maxage": sharedMaxAge = Self.seconds(value) ?? 0
            case "max-stale": maxStale = value == nil ? .infinity : Self.seconds(value)
            case "min-fresh": minFresh = Self.seconds(value)
            case "stale-while-revalidate": staleWhileRevalidate = Self.seconds(value)
            case "stale-if-error": staleIfError = Self.seconds(value)
            default: break
            }
        }
    }

    /// `delta-seconds`: a non-negative integer; past 2^31 it reads as 2^31 (RFC 9111, 1.2.2).
    static func seconds(_ value: String?) -> TimeInterval? {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return min(TimeInterval(value) ?? .infinity, 2_147_483_648)
    }

    /// The field's directives as lowercased names and unquoted values; commas inside a quoted
    /// value (`no-cache="Set-Cookie, Age"`) do not split it.
    private static func directives(_ field: String) -> [(String, String?)] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in field {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { return nil }
            let value = pieces.count > 1
                ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                : nil
            return (name, value)
        }
    }
}
