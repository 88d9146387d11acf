/// An endpoint's type name, made only when a log handler writes it.
struct EndpointName: CustomStringConvertible, Sendable {
    let type: any Any.Type
    var description: String { String(describing: type) }
}
