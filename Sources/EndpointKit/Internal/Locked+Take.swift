extension Locked {
    /// The value, leaving `nil` in its place: whoever takes it first gets it, once.
    @inlinable public func take<Wrapped>() -> Wrapped? where Value == Wrapped? {
        withLock { value in
            defer { value = nil }
            return value
        }
    }
}
