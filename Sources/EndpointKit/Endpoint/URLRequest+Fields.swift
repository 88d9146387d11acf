import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Sets the header field `name` to `value` (`nil` removes it), replacing a field of the same
    /// name in any case, as `setValue(_:forHTTPHeaderField:)` does. See ``setFields(_:)``.
    mutating func setField(_ value: String?, named name: String) {
        setFields(CollectionOfOne((name, value)))
    }

    /// Sets each field of `fields` as ``setField(_:named:)`` does, reading and writing the
    /// request's fields once. Foundation on Linux checks a value character by character,
    /// capitalizes the name and copies every field for each field set: about 9,000 instructions
    /// a field, where this takes a few hundred. A field that can be sent keeps its name as given
    /// (names are compared without regard to case, so this changes nothing on the wire); one that
    /// cannot (see ``InvalidHeaderField``) is left to Foundation, which drops its value as before.
    mutating func setFields(_ fields: some Sequence<(String, String?)>) {
        var all = allHTTPHeaderFields ?? [:]
        all.reserveCapacity(all.count + fields.underestimatedCount)
        var changed = false
        for (name, value) in fields {
            if let value, InvalidHeaderField.problem(name: name, value: value) != nil {
                if changed { allHTTPHeaderFields = all }
                setValue(value, forHTTPHeaderField: name)
                (all, changed) = (allHTTPHeaderFields ?? [:], false)
                continue
            }
            if let old = all.keys.first(where: { HTTPToken.sameName($0, name) }) {
                all[old] = nil
                changed = true
            }
            if let value {
                all[name] = value
                changed = true
            }
        }
        if changed { allHTTPHeaderFields = all }
    }
}
