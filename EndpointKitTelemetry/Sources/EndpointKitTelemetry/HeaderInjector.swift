import Tracing

/// Puts a tracer's fields into a list of header fields.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout [(name: String, value: String)]) {
        fields.append((key, value))
    }
}
