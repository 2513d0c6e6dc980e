extension JSONText {
    /// JSON text written once, to be copied into many texts: an answer whose parts repeat from
    /// one request to the next keeps those parts written and copies their bytes instead of
    /// writing them again. A fragment is one value (a string, an object, an array), several
    /// elements of an array, or several members of an object (keys and values, without the
    /// braces), with the commas between them.
    public struct Fragment: Hashable, Sendable {
        /// The text, UTF-8: exactly what ``JSONText`` wrote.
        public let bytes: [UInt8]

        /// The whole of `text`.
        public init(_ text: JSONText) { bytes = text.storage }

        /// The text of `value`.
        public init(_ value: some JSONWritable) { bytes = JSONText.of(value) }

        /// The text of the string `value`, quoted and escaped.
        public init(string value: String) {
            var text = JSONText(reservingCapacity: value.utf8.count + 2)
            text.string(value)
            bytes = text.storage
        }

        /// The strings `values` as elements of an array (quoted, escaped, between commas,
        /// without the brackets); nil when there are none, which would leave nothing to write.
        public init?(elements values: [String]) {
            guard !values.isEmpty else { return nil }
            var text = JSONText(reservingCapacity: values.reduce(0) { $0 + $1.utf8.count + 3 })
            for value in values { text.string(value) }
            bytes = text.storage
        }
    }

    /// A value, elements or members written before: their bytes, with the comma the place
    /// needs before them.
    @inlinable public mutating func value(_ fragment: Fragment) {
        startValue()
        storage.append(contentsOf: fragment.bytes)
        needsComma = true
    }
}
