import Foundation

/// Percent-encodes query and form fields so that only RFC 3986 unreserved characters stay as
/// they are. `URLComponents.queryItems` leaves `+` alone, which servers read as a space.
enum QueryEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    static func encode(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = escape(item.name)
            guard let value = item.value else { return name }
            return name + "=" + escape(value)
        }
        .joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
