import Foundation

/// How ``DiskCacheStore`` lays out one answer in a file:
///
/// ```
/// "EKC1"  head length (UInt32)  body length (UInt64)  checksum (UInt64)  head (JSON)  body
/// ```
///
/// integers little-endian, the checksum (FNV-1a, 64 bits) over head and body. A file whose
/// lengths do not add up to its size, or whose checksum does not match, is not an entry: a
/// torn or damaged file is never read as an answer.
enum CacheEntryFile {
    private struct Head: Codable {
        let key: String
        let url: URL
        let status: Int
        let headers: [String: String]
        let requestDate: Double
        let responseDate: Double
        let varying: [String: String]
    }

    private static let magic = Data("EKC1".utf8)
    private static let prefixLength = 24

    /// The file's bytes for `response` stored under `key`.
    static func encode(_ response: CachedResponse, key: String) throws -> Data {
        let head = try JSONEncoder().encode(
            Head(
                key: key, url: response.url, status: response.statusCode, headers: response.headers,
                requestDate: response.requestDate.timeIntervalSince1970, responseDate: response.responseDate.timeIntervalSince1970,
                varying: response.varying))
        var data = magic
        data.reserveCapacity(prefixLength + head.count + response.body.count)
        append(UInt32(head.count), to: &data)
        append(UInt64(response.body.count), to: &data)
        append(checksum(head, response.body), to: &data)
        data.append(head)
        data.append(response.body)
        return data
    }

    /// The key and answer in a whole file's `data`, or `nil` if it is not a sound entry.
    static func decode(_ data: Data) -> (key: String, response: CachedResponse)? {
        guard let (headLength, bodyLength, sum) = prefix(data), data.count == prefixLength + headLength + bodyLength else {
            return nil
        }
        let start = data.startIndex + prefixLength
        let head = data[start..<start + headLength]
        let body = data[(start + headLength)...]
        guard checksum(head, body) == sum, let fields = try? JSONDecoder().decode(Head.self, from: head) else { return nil }
        let response = CachedResponse(
            url: fields.url, statusCode: fields.status, headers: fields.headers, body: Data(body),
            requestDate: Date(timeIntervalSince1970: fields.requestDate), responseDate: Date(timeIntervalSince1970: fields.responseDate),
            varying: fields.varying)
        return (fields.key, response)
    }

    /// The key and variant of the entry in the file at `url`, read from its head alone (the
    /// body is checked when it is read); `nil` if the file is not an entry of the size it says.
    static func identity(at url: URL) -> (key: String, variant: String, size: Int)? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: prefixLength), let (headLength, bodyLength, _) = prefix(start),
            let size = try? handle.seekToEnd(), Int(size) == prefixLength + headLength + bodyLength,
            (try? handle.seek(toOffset: UInt64(prefixLength))) != nil,
            let head = try? handle.read(upToCount: headLength), head.count == headLength,
            let fields = try? JSONDecoder().decode(Head.self, from: head)
        else { return nil }
        return (fields.key, CachedResponse.variant(of: fields.varying), Int(size))
    }

    /// A stable 64-bit FNV-1a hash, as 16 hex digits: file names that are the same in every run.
    static func name(for id: String) -> String {
        let hash = fnv(Data(id.utf8), fnv(Data(), 0xcbf2_9ce4_8422_2325))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func prefix(_ data: Data) -> (Int, Int, UInt64)? {
        guard data.count >= prefixLength, data.prefix(4) == magic else { return nil }
        let bytes = [UInt8](data.prefix(prefixLength))
        let headLength = Int(integer(bytes[4..<8]))
        let bodyLength = integer(bytes[8..<16])
        guard bodyLength < UInt64(Int.max / 2) else { return nil }
        return (headLength, Int(bodyLength), integer(bytes[16..<24]))
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func checksum(_ head: Data, _ body: Data) -> UInt64 {
        fnv(body, fnv(head, 0xcbf2_9ce4_8422_2325))
    }

    private static func fnv(_ data: Data, _ seed: UInt64) -> UInt64 {
        data.withUnsafeBytes { bytes in
            bytes.reduce(seed) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        }
    }
}
