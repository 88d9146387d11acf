/// A type with a value that stands for nothing: `Optional`, whose `nil` an empty JSON body
/// decodes to (see `JSONDecoder.decodeBody(_:from:)`).
protocol AbsentValue {
    /// The value for nothing.
    static var absent: Self { get }
}

extension Optional: AbsentValue {
    static var absent: Self { nil }
}
