extension Request: StatusOnlyEndpoint {
    /// Without a validation of its own, a request reads only the status code: its content is
    /// decoded from the body alone.
    var readsStatusOnly: Bool { validation == nil }
}
